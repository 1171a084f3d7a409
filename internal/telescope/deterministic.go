package telescope

import (
	"context"
	"fmt"
)

// deterministic returns the strategy that needs no model for sp.Kind; an empty kind picks
// one by the kind of each unit (the fallback of llm strategies that name none).
func deterministic(sp Spec) Strategy { return detStrategy{spec: sp} }

// detStrategy is a built-in strategy, or a configured variant of one (its own name, version
// or target tokens).
type detStrategy struct{ spec Spec }

// Spec returns the strategy's spec.
func (d detStrategy) Spec() Spec { return d.spec }

// Abstract dispatches on the strategy's kind. Each kind reads every kind of unit: a code
// strategy given a document summarises its headings, and so on, so one build covers a whole
// tree.
func (d detStrategy) Abstract(ctx context.Context, u *Unit) (Abstract, error) {
	var a Abstract
	var err error
	switch d.spec.Kind {
	case CodeSignature:
		a, err = signatures(ctx, u)
	case CodeSecurity:
		a, err = securitySites(ctx, u)
	case NarrativeSummary:
		a, err = narrative(ctx, u)
	case AuditFindings:
		a, err = findings(ctx, u)
	case "":
		a, err = byUnitKind(ctx, u)
	default:
		return Abstract{}, fmt.Errorf("strategy %q: unknown kind %q", d.spec.Name, d.spec.Kind)
	}
	if err != nil {
		return Abstract{}, err
	}
	a.Text = capTokens(a.Text, d.spec.TargetTokens)
	return a, nil
}

// byUnitKind is the usual abstract of each kind of unit: signatures of code, headings of
// documents, the shape of data.
func byUnitKind(ctx context.Context, u *Unit) (Abstract, error) {
	switch u.Kind {
	case UnitCode:
		return signatures(ctx, u)
	case UnitDoc:
		return docOutline(u), nil
	default:
		return dataShape(u), nil
	}
}

// kindStrategy names the built-in strategy byUnitKind uses for units of kind k.
func kindStrategy(k UnitKind) string {
	if k == UnitCode {
		return CodeSignature
	}
	return NarrativeSummary
}
