package telescope

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A NodeKind says what a node abstracts.
type NodeKind string

// The kinds of node, from the bottom of the tree to its top.
const (
	KindRaw   NodeKind = "raw"   // L0: a span of one unit's source (a definition, a section, a run of rows)
	KindUnit  NodeKind = "unit"  // L1: the abstract of one unit (a file)
	KindGroup NodeKind = "group" // L2 and up: the abstract of a directory or a group of directories
	KindRoot  NodeKind = "root"  // the index of the whole build
)

// A Span is the exact source a node covers: a path and, for raw and unit nodes, an
// inclusive 1-based line range. A group's span is its directory, with no lines.
type Span struct {
	Path      string `json:"path"` // slash-separated, relative to the root; "." is the root
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
}

// String is the path:start-end form.
func (s Span) String() string {
	if s.StartLine == 0 {
		return s.Path
	}
	return fmt.Sprintf("%s:%d-%d", s.Path, s.StartLine, s.EndLine)
}

// A Part is one L0 piece of a unit: a top-level definition, a document section or a run of
// data rows. Parts are not stored on their own; their ids are the unit's id, a dot and the
// part's number, and drilldown resolves them through the unit.
type Part struct {
	Title     string `json:"title"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

// A Node is one entry of a telescope. Its id is a short hash over everything that decides its
// text (the strategy and its settings, the level, the path, the content or the children's
// ids), so equal input always yields the same node and any change yields a new one.
type Node struct {
	ID       string   `json:"id"`
	Level    int      `json:"level"` // 0 raw, 1 unit, 2… group; the root is one above the top group
	Kind     NodeKind `json:"kind"`
	Span     Span     `json:"span"`
	Strategy string   `json:"strategy"` // the strategy that wrote Text
	Version  int      `json:"strategy_version"`
	// Headline is a one-line summary, shown where the node is listed in its parent.
	Headline string `json:"headline,omitempty"`
	// Text is the abstract: what a reader of this node sees.
	Text     string   `json:"text"`
	Children []string `json:"children,omitempty"`
	// Parts are a unit's L0 pieces (units only).
	Parts []Part `json:"parts,omitempty"`
	// UnitKind and Lang describe a unit's source: code, doc or data, and its language or format.
	UnitKind UnitKind `json:"unit_kind,omitempty"`
	Lang     string   `json:"lang,omitempty"`
	// Hash is the hex SHA-256 of a unit's bytes, checked before its source is shown.
	Hash string `json:"hash,omitempty"`
	// InputTokens is the raw source the node covers, in tokens; OutputTokens is Text's size.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// Units counts the units under the node (1 for a unit).
	Units int `json:"units"`
	// Subtree totals the units and groups below a group or the root, so that a build that
	// finds the node in the store has its statistics without reading what is below.
	Subtree *Subtree `json:"subtree,omitempty"`
	// Fallback says why a deterministic strategy stood in for the model, when it did.
	Fallback string `json:"fallback,omitempty"`
	// QuickIndex marks a unit abstracted from definitions the index's fast scanner read (its
	// quick tier), not a parse.
	QuickIndex bool `json:"quick_index,omitempty"`
	// LLMInputTokens and LLMOutputTokens are what the model call that wrote Text reported.
	LLMInputTokens  int `json:"llm_input_tokens,omitempty"`
	LLMOutputTokens int `json:"llm_output_tokens,omitempty"`
}

// Subtree totals what lies below a group or the root.
type Subtree struct {
	Groups int `json:"groups"` // group nodes below, not counting the node itself
	// Strategies totals the unit nodes below by the strategy that wrote them.
	Strategies map[string]*Totals `json:"strategies"`
}

// Totals add up unit nodes of one strategy.
type Totals struct {
	Units        int     `json:"units"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	RatioSum     float64 `json:"ratio_sum"` // sum of output/input over units with input
	RatioN       int     `json:"ratio_n"`
}

// add folds n (a unit, or a group with its subtree) into s.
func (s *Subtree) add(n *Node) {
	if s.Strategies == nil {
		s.Strategies = map[string]*Totals{}
	}
	if n.Kind != KindUnit {
		if n.Subtree == nil {
			return
		}
		s.Groups += n.Subtree.Groups + 1
		for name, t := range n.Subtree.Strategies {
			s.total(name).merge(t)
		}
		return
	}
	t := s.total(n.Strategy)
	t.Units++
	t.InputTokens += n.InputTokens
	t.OutputTokens += n.OutputTokens
	if n.InputTokens > 0 {
		t.RatioSum += float64(n.OutputTokens) / float64(n.InputTokens)
		t.RatioN++
	}
}

func (s *Subtree) total(name string) *Totals {
	t := s.Strategies[name]
	if t == nil {
		t = &Totals{}
		s.Strategies[name] = t
	}
	return t
}

func (t *Totals) merge(o *Totals) {
	t.Units += o.Units
	t.InputTokens += o.InputTokens
	t.OutputTokens += o.OutputTokens
	t.RatioSum += o.RatioSum
	t.RatioN += o.RatioN
}

// nodeFormat is the version of the stored node encoding, of the ids' inputs and of what the
// built-in strategies and group abstracts write; bump it when any of them changes, so that
// old entries are never read as new ones.
const nodeFormat = 3

// encodeNode and decodeNode are the stored form of a node.
func encodeNode(n *Node) ([]byte, error) {
	b, err := json.Marshal(n)
	if err != nil {
		return nil, fmt.Errorf("encode node %s: %w", n.ID, err)
	}
	return b, nil
}

func decodeNode(b []byte) (*Node, error) {
	var n Node
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("decode node: %w", err)
	}
	return &n, nil
}

// partID is the id of a unit's part i (1-based).
func partID(unitID string, i int) string { return unitID + "." + strconv.Itoa(i) }

// splitPartID splits "abc123.4" into the unit id and 4; ok is false for an id without a part.
func splitPartID(id string) (unitID string, part int, ok bool) {
	i := strings.LastIndexByte(id, '.')
	if i < 0 {
		return id, 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 1 {
		return id, 0, false
	}
	return id[:i], n, true
}
