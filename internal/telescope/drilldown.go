package telescope

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Errors of Node and Drilldown.
var (
	// ErrNotFound means no node has the id: it was never built here, or the store forgot it.
	ErrNotFound = errors.New("no such telescope node")
	// ErrStale means a unit's file changed since its node was built.
	ErrStale = errors.New("the file changed since the telescope was built")
)

// Node returns the node with id. A part id (unit.N) returns the unit's part as a raw node.
func (e *Engine) Node(ctx context.Context, id string) (*Node, error) {
	id = strings.TrimSpace(id)
	if err := checkID(id); err != nil {
		return nil, err
	}
	unitID, part, isPart := splitPartID(id)
	n, ok, err := e.load(ctx, unitID)
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w %s: build the telescope first (ids come from telescope build and drilldown), or rebuild it if the store was cleared", ErrNotFound, unitID)
	}
	if !isPart {
		return n, nil
	}
	if n.Kind != KindUnit || part > len(n.Parts) {
		return nil, fmt.Errorf("%w %s: node %s has %s", ErrNotFound, id, unitID, plural(len(n.Parts), "part", "parts"))
	}
	p := n.Parts[part-1]
	return &Node{
		ID: id, Level: 0, Kind: KindRaw, Span: Span{Path: n.Span.Path, StartLine: p.StartLine, EndLine: p.EndLine},
		Strategy: n.Strategy, Version: n.Version, Headline: p.Title, UnitKind: n.UnitKind, Lang: n.Lang, Hash: n.Hash, Units: 1,
	}, nil
}

// A Drill is what drilling into a node shows: the abstracts of its children (a group or the
// root), or source lines (a unit or a part).
type Drill struct {
	Node     *Node   `json:"node"`
	Children []*Node `json:"children,omitempty"`
	// Source holds the lines of a unit or part, the first being line FirstLine.
	Source    []string `json:"source,omitempty"`
	FirstLine int      `json:"first_line,omitempty"`
}

// Drilldown opens the node with id: a group's or the root's children, or for a unit (L1)
// or a part (L0) the raw source with its line numbers. The file is read from the root, after
// checking that the path stays inside it and that its bytes are the ones abstracted.
func (e *Engine) Drilldown(ctx context.Context, id string) (*Drill, error) {
	n, err := e.Node(ctx, id)
	if err != nil {
		return nil, err
	}
	d := &Drill{Node: n}
	switch n.Kind {
	case KindGroup, KindRoot:
		for _, cid := range n.Children {
			c, err := e.Node(ctx, cid)
			if err != nil {
				return nil, fmt.Errorf("child of %s: %w", n.ID, err)
			}
			d.Children = append(d.Children, c)
		}
		return d, nil
	}
	content, err := readInside(e.root, n.Span.Path)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(content); hex.EncodeToString(sum[:]) != n.Hash {
		return nil, fmt.Errorf("%s: %w; rebuild it for fresh ids", n.Span.Path, ErrStale)
	}
	lines := splitLines(content)
	first, last := 1, len(lines)
	if n.Kind == KindRaw {
		first, last = max(n.Span.StartLine, 1), min(n.Span.EndLine, len(lines))
	}
	if first <= last {
		d.Source = lines[first-1 : last]
	}
	d.FirstLine = first
	return d, nil
}

// Render writes the drill as text for a model: a header naming the node, then the children's
// abstracts, each under its id, or the numbered source lines.
func (d *Drill) Render() string {
	var b strings.Builder
	n := d.Node
	switch n.Kind {
	case KindGroup, KindRoot:
		fmt.Fprintf(&b, "%s %s (L%d, %s): %s\n", n.ID, displayPath(n), n.Level, plural(len(d.Children), "member", "members"), n.Headline)
		for _, c := range d.Children {
			fmt.Fprintf(&b, "\n── %s %s (L%d) ──\n%s", c.ID, displayPath(c), c.Level, c.Text)
			if !strings.HasSuffix(c.Text, "\n") {
				b.WriteString("\n")
			}
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s %s lines %d-%d (%s)\n", n.ID, n.Span.Path, d.FirstLine, d.FirstLine+len(d.Source)-1, n.Lang)
	if n.Kind == KindUnit && len(n.Parts) > 1 {
		b.WriteString("parts:")
		for i, p := range n.Parts {
			fmt.Fprintf(&b, "\n  %s L%d-%d %s", partID(n.ID, i+1), p.StartLine, p.EndLine, p.Title)
		}
		b.WriteString("\n")
	}
	width := len(fmt.Sprint(d.FirstLine + len(d.Source) - 1))
	for i, l := range d.Source {
		fmt.Fprintf(&b, "%*d| %s\n", width, d.FirstLine+i, l)
	}
	return b.String()
}

// RenderNode writes a node itself: a header with its id, level, span and sizes, then its text.
func RenderNode(n *Node) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s L%d %s %s · %s v%d · %s raw → %s", n.ID, n.Level, n.Kind, n.Span, n.Strategy, n.Version, kTokens(n.InputTokens), kTokens(n.OutputTokens))
	if n.Fallback != "" {
		fmt.Fprintf(&b, " · fallback: %s", n.Fallback)
	}
	if n.QuickIndex {
		b.WriteString(" · quick index")
	}
	b.WriteString("\n")
	if n.Kind == KindRaw {
		fmt.Fprintf(&b, "part %s of %s; drilldown shows its lines\n", n.Headline, n.Span.Path)
		return b.String()
	}
	b.WriteString(n.Text)
	return b.String()
}

func displayPath(n *Node) string {
	if n.Kind == KindGroup {
		return n.Span.Path + "/"
	}
	return n.Span.Path
}
