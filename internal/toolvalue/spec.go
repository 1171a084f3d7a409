package toolvalue

import (
	"cmp"
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
	return matchStar(r.Pattern, tool)
}

// matchStar reports whether name matches pattern, in which "*" matches any run of
// characters and every other character itself ([ and ?, which tool names may contain,
// included). It backtracks only to the last star, so it is linear in practice: Resolve
// matches every rule of every layer against a name, and the built-ins alone are over a
// hundred.
func matchStar(pattern, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0 // the last star seen in pattern, and where in name it matched from
	for n < len(name) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, n
			p++
		case p < len(pattern) && pattern[p] == name[n]:
			p++
			n++
		case star >= 0:
			mark++
			p, n = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
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
	for i := range m.FollowUps { // a fresh slice: apply cloned it
		m.FollowUps[i].Tool = followUpTool(tool, m.FollowUps[i].Tool)
	}
	return m, prov
}

// followUpTool names the tool a follow-up edge of tool calls: next, or for a next of the
// form "*__<name>", the tool <name> of tool's own upstream, which is everything before the
// last "__" of tool ("*__read_text_file" after "fs__search_files" or
// "mcp__fs__search_files" is "fs__read_text_file" or "mcp__fs__read_text_file"; after a
// bare "search_files", "read_text_file"). A pattern resolved as a name keeps the "*".
func followUpTool(tool, next string) string {
	name, ok := strings.CutPrefix(next, "*"+upstreamSep)
	if !ok {
		return next
	}
	if i := strings.LastIndex(tool, upstreamSep); i >= 0 {
		return tool[:i+len(upstreamSep)] + name
	}
	return name
}

// upstreamSep separates the gateway's prefix of an upstream from the upstream's tool name.
const upstreamSep = "__"

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
