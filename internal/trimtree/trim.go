package trimtree

import (
	"errors"
	"fmt"
)

// HintReserve is the number of tokens of the budget that Trim leaves unused
// when it trims, for the line the caller appends to say what was left out
// ("12 of 300 items shown; call winnow__more {...} for the rest"). A trimmed
// Text counts at most budget-HintReserve tokens, so Text plus a hint of up to
// HintReserve tokens stays within the budget.
const HintReserve = 48

// Strategy values name how Trim chose the items it kept.
const (
	// StrategyNone: the text is returned unchanged, because it fits the
	// budget, has no list, or not one item of its list fits.
	StrategyNone = "none"
	// StrategyOrder: the signals do not tell the items apart (no signal,
	// or every item scores the same), or no item they favour fits, so
	// Trim kept a prefix in source order.
	StrategyOrder = "order"
	// StrategyDP: an exact 0/1 knapsack over the items that match the
	// signals (at most maxDPItems of them), on a bounded table.
	StrategyDP = "dp"
	// StrategyGreedy: more items match than the DP takes; they were taken
	// by value per token.
	StrategyGreedy = "greedy"
)

// Format values name the kind of list Trim found.
const (
	// FormatJSON: the text is a JSON document and the list one of its
	// arrays; a trimmed Text is valid JSON.
	FormatJSON = "json"
	// FormatLines: the text is not JSON, and its lines are the items.
	FormatLines = "lines"
)

// Signals are the words that say what the agent is after. Items that
// contain more of them, and rarer ones, are worth more.
type Signals struct {
	// Args are words from the current call's arguments (the gateway
	// extracts them). They weigh weightArg each.
	Args []string
	// Recent are words from the session's recent queries and calls. They
	// weigh weightRecent each.
	Recent []string
}

// Result is what Trim did to one response.
type Result struct {
	// Text is the trimmed response, in the format of the input: the kept
	// items byte for byte, with the separators and wrapper around them
	// (valid JSON if the input was JSON). When Strategy is StrategyNone it
	// is the input unchanged.
	Text string
	// Kept holds the indexes of the kept items, in source order. It is
	// empty when Strategy is StrategyNone.
	Kept []int
	// Total is the number of items in the list that was trimmed, or that
	// could not be trimmed because no item fits; 0 when no list was
	// looked for (the text fits) or none was found.
	Total int
	// Before and After count the tokens of the input and of Text, with the
	// counter given to Trim, each over the whole text.
	Before, After int
	// Strategy is one of StrategyNone, StrategyOrder, StrategyDP and
	// StrategyGreedy.
	Strategy string
	// Path is the JSON path of the trimmed array: "" for a top-level
	// array or for lines, "items" for the field of a wrapper object,
	// "data.search.nodes" for a nested one. Keys that are not simple
	// names are written as ["key"].
	Path string
	// Format is FormatJSON or FormatLines when a list was found, "" when
	// not.
	Format string
	// Items are the byte ranges in the input text of all Total items of
	// the list, in order, when Trim trimmed (nil when Strategy is
	// StrategyNone): what Kept indexes, for a caller that pages through
	// the items left out.
	Items []Span
	// Reason says in a few words why Text is what it is, for logs and
	// telemetry ("fits the budget", "no item fits the budget", ...).
	Reason string
}

// A Span is the byte range text[Start:End] of one item.
type Span struct{ Start, End int }

// Reasons for a Result.
const (
	reasonFits      = "fits the budget"
	reasonNoList    = "no list to trim"
	reasonNoneFit   = "no item fits the budget"
	reasonTrimmed   = "trimmed to the budget"
	reasonOverheads = "the text around the list does not fit the budget"
)

// Trim keeps the items of text's main list that are worth the most to the
// agent within budget tokens, as measured by count, and returns the text
// with the others left out. It returns text unchanged, with Strategy
// StrategyNone, when it fits the budget, has no list to trim, or when not
// one item fits together with the text around the list (then Total is the
// size of the list and Kept is empty, and the caller decides). When it
// trims, Text counts at most budget-HintReserve tokens and Kept is never
// empty.
//
// Trim counts the whole text once, the text around the list once, each
// item once (with the separator before it) and the trimmed text once per
// verification round, normally one. count must be safe to call with any
// string; Trim calls it from one goroutine. The error is non-nil only for
// a nil count or a budget below 1.
func Trim(text string, budget int, sig Signals, count func(string) int) (Result, error) {
	return trim(text, budget, sig, count, nil)
}

// TrimItems is Trim for a text whose main list is already known: text is
// a JSON array and items, which must not be empty, are the byte ranges of
// all its elements, each from its first byte to its last, in order (what
// shape.EncodeBelowSpans records). The list Trim would find in such a
// text is that array, so the result is Trim's; the text is not scanned
// again. items is not modified.
func TrimItems(text string, items []Span, budget int, sig Signals, count func(string) int) (Result, error) {
	if len(items) == 0 {
		return Trim(text, budget, sig, count)
	}
	return trim(text, budget, sig, count, items)
}

// trim is Trim, taking the items of text's list from known when it is not
// nil instead of looking for the list.
func trim(text string, budget int, sig Signals, count func(string) int, known []Span) (Result, error) {
	if count == nil {
		return Result{}, errors.New("trimtree: nil token counter")
	}
	if budget < 1 {
		return Result{}, fmt.Errorf("trimtree: budget of %d tokens: want at least 1", budget)
	}
	before := count(text)
	res := Result{Text: text, Before: before, After: before, Strategy: StrategyNone}
	if before <= budget {
		res.Reason = reasonFits
		return res, nil
	}
	var l *list
	ok := true
	if known != nil {
		l = knownList(text, known)
	} else {
		l, ok = findList(text)
	}
	if !ok {
		res.Reason = reasonNoList
		return res, nil
	}
	res.Total, res.Path, res.Format = len(l.items), l.path, l.format
	limit := budget - HintReserve
	overhead := count(l.prefix()) + count(l.suffix())
	if limit-overhead < 1 {
		res.Reason = reasonOverheads
		return res, nil
	}
	costs := l.costs(count)
	values := newScorer(sig).values(l)
	sel := choose(values, costs, limit-overhead)
	kept, out, n := fit(l, sel, values, costs, limit, count)
	if len(kept) == 0 {
		res.Reason = reasonNoneFit
		return res, nil
	}
	res.Text, res.Kept, res.After = out, kept, n
	res.Items = make([]Span, len(l.items))
	for i, it := range l.items {
		res.Items[i] = Span{it.start, it.end}
	}
	res.Strategy, res.Reason = sel.strategy, reasonTrimmed
	return res, nil
}

// fit renders the selection and counts it; while it is over limit (token
// counts are not quite additive across item boundaries), it drops the kept
// items of least value per token, at least as many tokens' worth as the
// excess, and tries again. It returns the kept indexes, the text and its
// count, or no indexes when nothing is left.
func fit(l *list, sel selection, values []float64, costs []int, limit int, count func(string) int) ([]int, string, int) {
	kept := sel.kept
	for len(kept) > 0 {
		out := l.render(kept)
		n := count(out)
		if n <= limit {
			return kept, out, n
		}
		kept = shed(kept, values, costs, n-limit, sel.strategy == StrategyOrder)
	}
	return nil, "", 0
}
