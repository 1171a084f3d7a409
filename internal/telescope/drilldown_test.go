package telescope

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestDrilldown(t *testing.T) {
	root := fixture(t)
	st, url := sqliteStore(t)
	e, _ := newEngine(t, root, st)
	res := build(t, e, Request{})

	// A new engine, as another process: everything comes from the store.
	e2, _ := newEngine(t, root, openStore(t, url))
	ctx := t.Context()

	top, err := e2.Drilldown(ctx, res.RootID)
	if err != nil {
		t.Fatal(err)
	}
	if len(top.Children) != 7 || top.Children[0].Kind != KindGroup {
		t.Fatalf("root drilldown: %d children", len(top.Children))
	}
	text := top.Render()
	if !strings.Contains(text, "── "+res.KeyMap["L2:shop/"]+" shop/ (L2) ──") || !strings.Contains(text, "orders.py") {
		t.Errorf("root drilldown does not show the groups' abstracts:\n%s", text)
	}

	shop, err := e2.Drilldown(ctx, res.KeyMap["L2:shop/"])
	if err != nil {
		t.Fatal(err)
	}
	if len(shop.Children) != 2 || !strings.Contains(shop.Render(), "def find_order(conn, order_id)") {
		t.Errorf("group drilldown:\n%s", shop.Render())
	}

	ordersID := res.KeyMap["L1:shop/orders.py"]
	unit, err := e2.Drilldown(ctx, ordersID)
	if err != nil {
		t.Fatal(err)
	}
	src := unit.Render()
	for _, want := range []string{
		ordersID + " shop/orders.py lines 1-35 (python)",
		ordersID + ".3 L23-30 def find_order(conn, order_id)",
		`26|     cur.execute("SELECT * FROM orders WHERE id = " + order_id)`,
		" 1| \"\"\"Orders: creating, listing and cancelling them.\"\"\"",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("unit drilldown lacks %q:\n%s", want, src)
		}
	}

	part, err := e2.Drilldown(ctx, ordersID+".3")
	if err != nil {
		t.Fatal(err)
	}
	if part.FirstLine != 23 || len(part.Source) != 8 || !strings.HasPrefix(part.Source[0], "def find_order") {
		t.Errorf("part drilldown: first line %d, %d lines: %q", part.FirstLine, len(part.Source), part.Source)
	}
	n, err := e2.Node(ctx, ordersID+".3")
	if err != nil || n.Kind != KindRaw || n.Level != 0 || n.Span.String() != "shop/orders.py:23-30" {
		t.Errorf("part node %+v, %v", n, err)
	}
	if !strings.Contains(RenderNode(n), "part def find_order") {
		t.Errorf("RenderNode of a part: %s", RenderNode(n))
	}

	for _, id := range []string{ordersID + ".9", "000000000000"} {
		if _, err := e2.Drilldown(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Drilldown(%s) = %v, want ErrNotFound", id, err)
		}
	}
	for _, id := range []string{"", "xyz", "../etc/passwd", ordersID + ".0", ordersID + ".x", strings.ToUpper(ordersID)} {
		if _, err := e2.Drilldown(ctx, id); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("Drilldown(%q) = %v, want a malformed-id error", id, err)
		}
	}

	writeFile(t, filepath.Join(root, "shop/orders.py"), "changed\n")
	if _, err := e2.Drilldown(ctx, ordersID); !errors.Is(err, ErrStale) {
		t.Errorf("Drilldown of a changed file = %v, want ErrStale", err)
	}
}
