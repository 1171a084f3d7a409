package telescope

import (
	"slices"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/config"
)

// unitText builds the fixture with strategy and returns the L1 text of each file.
func unitTexts(t *testing.T, strategy string) (map[string]*Node, *Engine, *Result) {
	t.Helper()
	e, err := New(&Options{Root: fixture(t)})
	if err != nil {
		t.Fatal(err)
	}
	res := build(t, e, Request{Strategy: strategy})
	out := map[string]*Node{}
	for k, id := range res.KeyMap {
		if p, ok := strings.CutPrefix(k, "L1:"); ok {
			n, err := e.Node(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = n
		}
	}
	return out, e, res
}

func contains(t *testing.T, where, text string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: missing %q in:\n%s", where, w, text)
		}
	}
	for _, w := range notWant {
		if strings.Contains(text, w) {
			t.Errorf("%s: has %q, which it should leave out:\n%s", where, w, text)
		}
	}
}

func TestCodeSignature(t *testing.T) {
	nodes, _, _ := unitTexts(t, CodeSignature)
	orders := nodes["shop/orders.py"]
	contains(t, "orders.py", orders.Text,
		[]string{
			"Orders: creating, listing and cancelling them.", // module docstring
			"class Order", "def __init__(self, order_id, items)", "def total(self)", "Sum of the item prices.",
			"TODO: apply discounts before summing", // a key comment of a non-trivial body
			"def find_order(conn, order_id)", "Look an order up by id.", "def export_orders(path)",
		},
		[]string{"cur.execute", "total += item.price", "self.items = items", "subprocess.run"}, // no bodies
	)
	if orders.Headline != "Orders: creating, listing and cancelling them." {
		t.Errorf("headline %q", orders.Headline)
	}
	var titles []string
	for _, p := range orders.Parts {
		titles = append(titles, p.Title)
	}
	want := []string{"preamble (imports, declarations)", "class Order", "def find_order(conn, order_id)", "def export_orders(path)"}
	if !slices.Equal(titles, want) {
		t.Errorf("parts %q, want %q", titles, want)
	}
	main := nodes["server/main.go"]
	contains(t, "main.go", main.Text,
		[]string{"Package main serves the shop over HTTP.", "type Config struct", "func Serve(c Config) error", "Serve starts the HTTP server.", "func readKey() string"},
		[]string{"ListenAndServe", "SHOP_KEY", "SECURITY: no TLS"}, // a trivial body keeps no comment
	)
	// Documents and data get their narrative and shape under a code strategy too.
	contains(t, "README.md", nodes["README.md"].Text, []string{"# Shop"[2:], "Install", "Security"}, nil)
	contains(t, "customers.csv", nodes["data/customers.csv"].Text, []string{"3 rows", "columns: id, name, country"}, nil)
}

func TestCodeSecurity(t *testing.T) {
	nodes, _, _ := unitTexts(t, CodeSecurity)
	orders := nodes["shop/orders.py"].Text
	contains(t, "orders.py", orders,
		[]string{"sql", "process", `cur.execute("SELECT * FROM orders WHERE id = " + order_id)`, `subprocess.run("tar czf " + path + " orders/", shell=True)`, "in def find_order(conn, order_id)"},
		[]string{"def total(self)"}, // no site there
	)
	card := nodes["shop/payments/card.py"].Text
	contains(t, "card.py", card, []string{"crypto", "deserialise", "hashlib.md5", "pickle.loads(blob)"}, nil)
	contains(t, "main.go", nodes["server/main.go"].Text, []string{"network", "http.ListenAndServe"}, nil)
	if h := nodes["shop/__init__.py"].Headline; h != "no security-relevant sites" {
		t.Errorf("__init__.py headline %q", h)
	}
}

func TestNarrativeSummary(t *testing.T) {
	nodes, _, _ := unitTexts(t, NarrativeSummary)
	readme := nodes["README.md"]
	contains(t, "README.md", readme.Text, []string{
		"1 Shop", "A tiny shop backend used to test telescopes.", "5   Install", "Run `pip install shop` and start the server.", "Security",
	}, []string{"It stores orders in SQLite."}) // only the lead sentence
	if len(readme.Parts) != 3 || readme.Parts[1].Title != "Install" || readme.Parts[1].StartLine != 5 || readme.Parts[1].EndLine != 8 {
		t.Errorf("README parts %+v", readme.Parts)
	}
	guide := nodes["docs/guide.rst"].Text
	contains(t, "guide.rst", guide, []string{"User guide", "This guide explains how to run the shop.", "Setup", "Operation", "Start the server"}, []string{"It covers setup"})
	contains(t, "orders.py", nodes["shop/orders.py"].Text, []string{"class Order: One customer's order.", "function find_order: Look an order up by id."}, []string{"def total"})
}

func TestAuditFindings(t *testing.T) {
	nodes, _, _ := unitTexts(t, AuditFindings)
	audit := nodes["reports/audit.md"]
	contains(t, "audit.md", audit.Text, []string{
		"2 findings (1 high, 1 medium)",
		"L5 [high] Finding 1: SQL injection in find_order — CWE-89 — shop/orders.py:26",
		"L11 [medium] Finding 2: Weak hash for card numbers — shop/payments/card.py:9",
	}, []string{"Appendix", "Summary of the engagement"})
	sarif := nodes["reports/scan.sarif"].Text
	contains(t, "scan.sarif", sarif, []string{
		"[error] subprocess call with shell=True — python.lang.security.audit.subprocess-shell-true — shop/orders.py:34",
		"[warning] Avoid pickle", "shop/payments/card.py:15",
	}, nil)
	contains(t, "orders.py", nodes["shop/orders.py"].Text, []string{"TODO: apply discounts before summing", "def total(self)"}, nil)
	contains(t, "main.go", nodes["server/main.go"].Text, []string{"SECURITY: no TLS here"}, nil)
	if h := nodes["data/customers.csv"].Headline; h != "no findings" {
		t.Errorf("customers.csv headline %q", h)
	}
}

func TestDeterministicNamesMatchConfig(t *testing.T) {
	if got, want := deterministicNames[:], config.DeterministicStrategies(); !slices.Equal(got, want) {
		t.Errorf("telescope's deterministic strategies %v, config's %v", got, want)
	}
}

func TestConfiguredVariant(t *testing.T) {
	reg, err := NewRegistry([]Spec{{Name: "short_sigs", Version: 3, Kind: CodeSignature, TargetTokens: 20}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(&Options{Root: fixture(t), Strategies: reg})
	if err != nil {
		t.Fatal(err)
	}
	full := build(t, e, Request{})
	short := build(t, e, Request{Strategy: "short_sigs"})
	if short.Stats.OutputTokens >= full.Stats.OutputTokens {
		t.Errorf("target_tokens 20: %d tokens, not fewer than the default's %d", short.Stats.OutputTokens, full.Stats.OutputTokens)
	}
	if short.KeyMap["L1:README.md"] == full.KeyMap["L1:README.md"] {
		t.Error("a variant shares ids with its base strategy")
	}
	if _, err := NewRegistry([]Spec{{Name: "code_signature", Version: 1, Kind: CodeSignature}}, nil); err == nil {
		t.Error("a spec shadowing a built-in strategy was accepted")
	}
	if _, err := NewRegistry([]Spec{{Name: "x", Version: 1, Kind: "nope"}}, nil); err == nil || !strings.Contains(err.Error(), "code_signature") {
		t.Errorf("unknown kind: %v", err)
	}
}

func TestParseInline(t *testing.T) {
	sp, err := ParseInline(`{"kind":"code_security","target_tokens":100}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sp.Name, "inline-") || sp.Version != 1 || sp.Kind != CodeSecurity {
		t.Errorf("inline spec %+v", sp)
	}
	other, _ := ParseInline(`{"kind":"code_security","target_tokens":200}`)
	if other.Name == sp.Name {
		t.Error("different inline specs share a name")
	}
	for _, bad := range []string{``, `[]`, `{"kind":"llm","promt":"x"}`, `{"kind":1}`} {
		if _, err := ParseInline(bad); err == nil {
			t.Errorf("ParseInline(%q): no error", bad)
		}
	}
}
