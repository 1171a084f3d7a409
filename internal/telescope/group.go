package telescope

import (
	"fmt"
	"path"
	"strings"
)

// packageDocs name the files whose headline speaks for their directory.
var packageDocs = []string{"doc.go", "__init__.py", "README.md", "README.rst", "README", "README.txt", "mod.rs", "lib.rs", "index.ts", "index.js", "package-info.java"}

// groupNode writes a group's abstract: the directory, its size before and after, and one line
// per member with its id, name, token counts and headline. Groups are written the same way
// whatever the strategy: their members' headlines carry the strategy's voice, and a group
// costs no model call.
func (b *builder) groupNode(id string, lv int, dir string, members []*Node) *Node {
	n := &Node{ID: id, Level: lv, Kind: KindGroup, Span: Span{Path: dir}, Strategy: b.spec.Name, Version: b.spec.Version, Subtree: &Subtree{}}
	for _, m := range members {
		n.Children = append(n.Children, m.ID)
		n.InputTokens += m.InputTokens
		n.Units += m.Units
		n.Subtree.add(m)
	}
	abstracts := sumOutput(members)
	var t strings.Builder
	fmt.Fprintf(&t, "%s/ — %s, %s raw → %s in abstracts\n", dir, plural(n.Units, "file", "files"), kTokens(n.InputTokens), kTokens(abstracts))
	for _, m := range members {
		writeMember(&t, m, dir)
	}
	n.Text = t.String()
	n.OutputTokens = b.e.counter.Count(n.Text)
	n.Headline = groupHeadline(members, b.spec.Kind)
	return n
}

// rootNode writes the root index.
func (b *builder) rootNode(id string, levels int, rel string, top []*Node) *Node {
	n := &Node{ID: id, Level: levels + 1, Kind: KindRoot, Span: Span{Path: rel}, Strategy: b.spec.Name, Version: b.spec.Version, Subtree: &Subtree{}}
	for _, m := range top {
		n.Children = append(n.Children, m.ID)
		n.InputTokens += m.InputTokens
		n.Units += m.Units
		n.Subtree.add(m)
	}
	var t strings.Builder
	fmt.Fprintf(&t, "Telescope of %s · strategy %s v%d · %s", rel, b.spec.Name, b.spec.Version, plural(n.Units, "file", "files"))
	if levels > 1 {
		fmt.Fprintf(&t, " in %s", plural(len(top), "group", "groups"))
	}
	fmt.Fprintf(&t, " · %s raw\n", kTokens(n.InputTokens))
	if b.purpose != "" {
		fmt.Fprintf(&t, "Purpose: %s (most relevant first; %s left out)\n", clip(b.purpose, 200), plural(b.stats.Filtered, "file", "files"))
	}
	if q := b.stats.QuickUnits; q > 0 {
		fmt.Fprintf(&t, "Index: quick tier for %s (a fast scan, not a parse: spans and signatures may be less precise); they are described again once `winnow index` completes it.\n", plural(q, "file", "files"))
	}
	t.WriteString("drilldown(id) opens an entry: a group shows its members' abstracts, a file its source with line numbers, a part (id.N) only those lines.\n")
	for _, m := range top {
		writeMember(&t, m, rel)
	}
	n.Text = t.String()
	n.OutputTokens = b.e.counter.Count(n.Text)
	n.Headline = fmt.Sprintf("telescope of %s (%s)", rel, plural(n.Units, "file", "files"))
	return n
}

// writeMember writes one line for a member of a group or of the root.
func writeMember(t *strings.Builder, m *Node, parent string) {
	name := m.Span.Path
	if parent != "." && strings.HasPrefix(name, parent+"/") {
		name = name[len(parent)+1:]
	}
	if m.Kind == KindGroup {
		name += "/"
	}
	fmt.Fprintf(t, "%s %s [%s→%s]", m.ID, name, kTokens(m.InputTokens), kTokens(memberOutput(m)))
	if m.Headline != "" {
		fmt.Fprintf(t, " %s", m.Headline)
	}
	t.WriteString("\n")
}

// memberOutput is what drilling into m costs: a unit's abstract, or a group's members'.
func memberOutput(m *Node) int {
	return m.OutputTokens
}

func sumOutput(ns []*Node) int {
	s := 0
	for _, n := range ns {
		s += n.OutputTokens
	}
	return s
}

// groupHeadline is the headline of the directory's package doc, else its first members.
// Under strategies that look for sites or findings, it is the members that have some.
func groupHeadline(members []*Node, kind string) string {
	if kind == CodeSecurity || kind == AuditFindings {
		return hitsHeadline(members)
	}
	for _, doc := range packageDocs {
		for _, m := range members {
			if m.Kind == KindUnit && path.Base(m.Span.Path) == doc && m.Headline != "" && !strings.HasPrefix(m.Headline, "defines ") && m.Headline != "no definitions" {
				return m.Headline
			}
		}
	}
	var names []string
	for _, m := range members[:min(len(members), 6)] {
		name := path.Base(m.Span.Path)
		if m.Kind == KindGroup {
			name += "/"
		}
		names = append(names, name)
	}
	s := strings.Join(names, ", ")
	if len(members) > len(names) {
		s += fmt.Sprintf(" … (%d in all)", len(members))
	}
	return s
}

// kTokens formats a token count briefly: 812, 4.3k, 1.2M.
func kTokens(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// hitsHeadline names the members whose headline reports something ("no …" reports nothing),
// with their headlines, as far as 160 bytes allow.
func hitsHeadline(members []*Node) string {
	var hits []string
	for _, m := range members {
		if m.Headline != "" && !strings.HasPrefix(m.Headline, "no ") {
			name := path.Base(m.Span.Path)
			if m.Kind == KindGroup {
				name += "/"
			}
			hits = append(hits, name+": "+m.Headline)
		}
	}
	if len(hits) == 0 {
		return fmt.Sprintf("nothing found in %s", plural(len(members), "member", "members"))
	}
	return clip(fmt.Sprintf("%d of %d: %s", len(hits), len(members), strings.Join(hits, "; ")), 160)
}
