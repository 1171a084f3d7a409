package pipeline

import (
	"context"
	"fmt"

	"github.com/winnowhq/winnow/internal/shape"
	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/trimtree"
)

// trimRounds bounds the attempts to fit an encoded view into the budget.
const trimRounds = 3

// Trim is the stage that cuts a result still over Options.CallBudget
// tokens (shared among its texts by size) to the items worth the most to
// the agent, chosen by package trimtree with the words of the call's
// arguments and of the session's recent calls as signals. The whole
// response is kept under a short ref, and one line says what was left out
// and the exact call that returns it:
//
//	[68 more items: winnow__more {"ref":"r7"}]
//
// A text the Encode stage re-encoded is trimmed in its original form (a
// JSON array, not the table it became) and the selection encoded again,
// so the view stays a well-formed table; the budget given to trimtree is
// scaled by how much the encoding saved, and tightened until the encoded
// view fits. A text is trimmed only when the view and the hint together
// are shorter than the text, and only when the items left out can be held
// for winnow__more; otherwise it passes whole.
type Trim struct{}

// Name implements Stage.
func (Trim) Name() string { return "trim" }

// Before implements Stage; trimming happens after dispatch.
func (Trim) Before(context.Context, *Turn) error { return nil }

// After implements Stage.
func (Trim) After(_ context.Context, t *Turn) error {
	budget := t.p.opts.CallBudget
	if budget < 0 {
		return nil
	}
	var open []*Text
	var counts []int
	total := 0
	for _, tx := range t.Texts {
		if !tx.Final {
			n := t.textTokens(tx)
			open, counts = append(open, tx), append(counts, n)
			total += n
		}
	}
	if budget = t.budget(open, total); total <= budget {
		return nil
	}
	for i, tx := range open {
		share := max(budget*counts[i]/total, trimtree.HintReserve+1)
		if counts[i] > share {
			if err := trimText(t, tx, share, counts[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// trimText trims tx, which counts n tokens, to budget.
func trimText(t *Turn, tx *Text, budget, n int) error {
	src, encoded := tx.Text, tx.Encoder != ""
	ratio := 1.0
	if encoded {
		src = tx.Upstream
		ratio = float64(n) / float64(max(t.upstreamTokens(tx), 1))
	}
	sig := trimtree.Signals{Args: t.words, Recent: t.recent}
	var known []trimtree.Span
	if src == tx.spansOf && len(tx.spans) > 0 {
		known = make([]trimtree.Span, len(tx.spans)/2)
		for i := range known {
			known[i] = trimtree.Span{Start: tx.spans[2*i], End: tx.spans[2*i+1]}
		}
	}
	var res trimtree.Result
	var view string
	var vn int
	for round := 0; round < trimRounds; round++ {
		b := trimtree.HintReserve + int(float64(budget-trimtree.HintReserve)/ratio)
		var err error
		if res, err = trimtree.TrimItems(src, known, b, sig, t.count); err != nil {
			return fmt.Errorf("trim: %w", err)
		}
		if res.Strategy == trimtree.StrategyNone {
			return nil // nothing to trim: the text passes whole
		}
		view, vn = res.Text, res.After
		if encoded {
			if e := shape.EncodeBelow(view, t.count, t.below); e.Encoder != "" {
				view, vn = e.Text, e.After
			}
		}
		if vn <= budget-trimtree.HintReserve {
			break
		}
		ratio *= 1.05 * float64(vn) / float64(budget-trimtree.HintReserve)
	}
	items, err := listOf(src, res)
	if err != nil {
		return fmt.Errorf("page the trimmed items: %w", err)
	}
	rest := complement(res.Kept, res.Total)
	if len(rest) == 0 {
		return nil
	}
	ref := tx.Ref
	if ref == "" {
		ref = t.p.newRef()
	}
	hint := fmt.Sprintf("[%d more %s: %s {\"ref\":%q}]", len(rest), items.unit(), MoreToolName, ref)
	if vn+t.count(hint) >= n {
		return nil // the hint would cost more than the trim saves
	}
	h := &held{
		session: t.Call.Session,
		ref:     ref,
		tool:    t.Call.Tool,
		items:   items,
		rest:    rest,
		encoded: encoded,
		ratio:   ratio,
		budget:  budget,
	}
	if !t.p.store.put(h) {
		return nil // too large to hold: the text passes whole rather than lose items
	}
	tx.record(telemetry.LayerTrim, tx.Text, view)
	tx.record(telemetry.LayerTrim, "", hint)
	tx.Text, tx.Hint, tx.Ref, tx.tokens = view, hint, ref, vn
	return nil
}
