package toolvalue

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"time"
)

// A Spec sets some fields of a tool's model; a nil field (or nil slice) leaves the field
// to the layers below it. A list set by a Spec replaces the list below it.
type Spec struct {
	Class         *Class
	FieldGroups   []FieldGroup
	TypicalTokens *int
	MaxTokens     *int
	LatencyP50    *time.Duration
	Dollars       *float64
	FreshnessTTL  *time.Duration
	FollowUps     []FollowUp
	Invalidates   []string
	FailFastAfter *int
	SideEffect    *SideEffect
	Speculate     *bool
	RateLimitHost *string
}

// A Rule applies a Spec to the tools whose names match Pattern ("*" matches any run of
// characters, so "*" is every tool and "github__*" every tool of one upstream). Origin
// says where it was written ("builtin", "annotations", "/home/me/.config/winnow/config.toml:12").
type Rule struct {
	Pattern string
	Origin  string
	Spec    Spec
}

// Matches reports whether the rule applies to the tool name.
func (r *Rule) Matches(tool string) bool {
	if !strings.Contains(r.Pattern, "*") {
		return r.Pattern == tool
	}
	// path.Match treats "/" specially and knows [ and ?, which tool names may contain;
	// only "*" is a wildcard here.
	ok, err := path.Match(escapeGlob(r.Pattern), tool)
	return err == nil && ok && !strings.Contains(tool, "/")
}

func escapeGlob(p string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `?`, `\?`).Replace(p)
}

// specificity orders rules of one layer: a bare "*" first, then patterns with wildcards,
// longer ones later, then exact names, so that the most specific rule is applied last and
// wins.
func specificity(r *Rule) (int, int) {
	switch {
	case r.Pattern == "*":
		return 0, 0
	case strings.Contains(r.Pattern, "*"):
		return 1, len(r.Pattern) - strings.Count(r.Pattern, "*")
	}
	return 2, len(r.Pattern)
}

// A Layer is one source of rules: built-in defaults, an upstream's annotations, the user's
// configuration. Layers are applied in order, each overriding what it sets.
type Layer []Rule

// Provenance maps each field of a resolved model (by its JSON name: "value_class",
// "cost_model.typical_tokens", "follow_up") to the Origin of the rule that set it.
type Provenance map[string]string

// Resolve returns the model of tool: [Unknown], overridden by every matching rule of
// every layer in order (within a layer, less specific patterns first), and which rule set
// each field.
func Resolve(tool string, layers ...Layer) (Model, Provenance) {
	m := Unknown
	prov := Provenance{}
	for _, l := range layers {
		var rules []*Rule
		for i := range l {
			if l[i].Matches(tool) {
				rules = append(rules, &l[i])
			}
		}
		slices.SortStableFunc(rules, func(a, b *Rule) int {
			ka, la := specificity(a)
			kb, lb := specificity(b)
			return cmp.Or(cmp.Compare(ka, kb), cmp.Compare(la, lb))
		})
		for _, r := range rules {
			r.Spec.apply(&m, prov, r.Origin)
		}
	}
	return m, prov
}

func (s *Spec) apply(m *Model, prov Provenance, origin string) {
	set(&m.Class, s.Class, prov, "value_class", origin)
	setList(&m.FieldGroups, s.FieldGroups, prov, "field_groups", origin)
	set(&m.Cost.TypicalTokens, s.TypicalTokens, prov, "cost_model.typical_tokens", origin)
	set(&m.Cost.MaxTokens, s.MaxTokens, prov, "cost_model.max_tokens", origin)
	set(&m.Cost.LatencyP50, s.LatencyP50, prov, "cost_model.latency_p50", origin)
	set(&m.Cost.Dollars, s.Dollars, prov, "cost_model.dollars", origin)
	set(&m.Cost.FreshnessTTL, s.FreshnessTTL, prov, "cost_model.freshness_ttl", origin)
	setList(&m.FollowUps, s.FollowUps, prov, "follow_up", origin)
	setList(&m.Invalidates, s.Invalidates, prov, "invalidates", origin)
	set(&m.FailFastAfter, s.FailFastAfter, prov, "fail_fast_after_n", origin)
	set(&m.SideEffect, s.SideEffect, prov, "side_effect", origin)
	set(&m.RateLimitHost, s.RateLimitHost, prov, "rate_limit_host", origin)
	if s.Speculate != nil {
		v := *s.Speculate
		m.Speculate = &v
		prov["speculate"] = origin
	}
}

func set[T any](dst *T, v *T, prov Provenance, field, origin string) {
	if v != nil {
		*dst = *v
		prov[field] = origin
	}
}

func setList[T any](dst *[]T, v []T, prov Provenance, field, origin string) {
	if v != nil {
		*dst = slices.Clone(v)
		prov[field] = origin
	}
}

// Fields lists the JSON names of a model's fields, in the order `winnow tools show`
// prints them.
var Fields = []string{
	"value_class", "side_effect", "speculate", "field_groups",
	"cost_model.typical_tokens", "cost_model.max_tokens", "cost_model.latency_p50",
	"cost_model.dollars", "cost_model.freshness_ttl",
	"follow_up", "invalidates", "fail_fast_after_n", "rate_limit_host",
}
