// Package toolvalue describes what a tool's calls are worth to an agent and what they
// cost: its value class, the field groups of its results, its cost model, the calls that
// usually follow it, what it makes stale, and whether it may run before the agent asks.
// A [Model] is resolved for one tool name from layered [Spec]s: winnow's built-in
// defaults, the upstream's MCP tool annotations, and the user's [tools."<name>"] tables,
// each layer overriding only the fields it sets (right wins), with "*" as a wildcard in
// names. [Builtin] is the first layer, [FromAnnotations] makes the second from an MCP
// tool's annotations, and a [Registry] holds all three for a running gateway and caches
// the models it resolves.
//
// It does not plan calls (package planner does), dispatch them (package gateway does) or
// read configuration files (package config decodes the tables into Specs).
package toolvalue

import (
	"fmt"
	"time"
)

// A Class says how much the result of a call is worth to the agent.
type Class string

// The value classes, from most to least valuable.
const (
	Critical   Class = "critical"   // the content the agent works on: file text, search hits
	Supporting Class = "supporting" // context that helps: metadata, listings
	Optional   Class = "optional"   // nice to have
	// AuditOnly results (TodoWrite, TaskUpdate) record what the agent did; they never
	// count against a budget and are the first a proxy clears.
	AuditOnly Class = "audit_only"
)

// Classes lists the value classes in order.
var Classes = []Class{Critical, Supporting, Optional, AuditOnly}

// Weight is the value a planner gives a result of the class: 1, 0.5, 0.2 and 0.
func (c Class) Weight() float64 {
	switch c {
	case Critical:
		return 1
	case Supporting:
		return 0.5
	case Optional:
		return 0.2
	}
	return 0
}

// A SideEffect says what calling a tool changes.
type SideEffect string

// The side-effect classes. Only Pure and ReadOnly tools are ever speculated.
const (
	Pure            SideEffect = "pure"             // a function of its arguments alone
	ReadOnly        SideEffect = "read_only"        // reads state, changes none
	MutatesLocal    SideEffect = "mutates_local"    // changes files or processes on this machine
	MutatesExternal SideEffect = "mutates_external" // changes something elsewhere: an issue, a message
	Indeterminate   SideEffect = "indeterminate"    // may do anything (a shell)
)

// SideEffects lists the side-effect classes, from the most to the least harmless.
var SideEffects = []SideEffect{Pure, ReadOnly, MutatesLocal, MutatesExternal, Indeterminate}

// Safe reports whether calling a tool with the side effect changes nothing, so that it may
// run before the agent asks for it.
func (s SideEffect) Safe() bool { return s == Pure || s == ReadOnly }

// A FieldGroup names a set of fields of a tool's (JSON) results and what they are worth:
// GitHub's *_url and node_id fields are worth little and left out by default, the full
// item always one winnow__more call away.
type FieldGroup struct {
	Name string `json:"name"`
	// Fields are member names or dotted paths ("user.avatar_url"); "*" matches any run of
	// characters within one name ("*_url").
	Fields []string `json:"fields"`
	// Value is the estimated worth of the group to the agent, 0 to 1.
	Value float64 `json:"value"`
	// Default says the group is included unless the intent or a budget leaves it out.
	Default bool `json:"default"`
}

// Cost is what a call of a tool is expected to cost. Sizes are tokens of the result the
// agent receives.
type Cost struct {
	TypicalTokens int           `json:"typical_tokens"`
	MaxTokens     int           `json:"max_tokens"`
	LatencyP50    time.Duration `json:"latency_p50"`
	Dollars       float64       `json:"dollars"`
	// FreshnessTTL is how long a result stays valid; 0 means until something invalidates it.
	FreshnessTTL time.Duration `json:"freshness_ttl"`
}

// A FollowUp is an edge of the follow-up graph: after a call of the tool, the agent calls
// Tool with Probability (within the next calls), with arguments that Args projects from
// the call and its result.
type FollowUp struct {
	// Tool is the next tool's name; "*__<name>" names the tool <name> of the same upstream
	// as the current one, which [Resolve] writes out ("*__read_text_file" after
	// "fs__search_files" is "fs__read_text_file").
	Tool        string  `json:"tool"`
	Probability float64 `json:"probability"`
	// Args maps each argument of the next call to a projection of the current call:
	// see [Projection] for the forms.
	Args map[string]string `json:"args,omitempty"`
}

// Model is the effective value model of one tool.
type Model struct {
	Class       Class        `json:"value_class"`
	FieldGroups []FieldGroup `json:"field_groups,omitempty"`
	Cost        Cost         `json:"cost_model"`
	FollowUps   []FollowUp   `json:"follow_up,omitempty"`
	// Invalidates names the tools (patterns with "*") whose cached results a call of
	// this tool makes stale.
	Invalidates []string `json:"invalidates,omitempty"`
	// FailFastAfter, when positive, answers a call from the session after that many
	// identical calls in a row returned unproductive results (an empty search, an
	// unchanged poll), without reaching the upstream.
	FailFastAfter int        `json:"fail_fast_after_n,omitempty"`
	SideEffect    SideEffect `json:"side_effect"`
	// Speculate can turn speculation off for a tool that is safe to run ahead; it can
	// never turn it on for one that is not.
	Speculate *bool `json:"speculate,omitempty"`
	// RateLimitHost names the host whose concurrency cap the tool's prefetches share.
	RateLimitHost string `json:"rate_limit_host,omitempty"`
}

// Unknown is the model of a tool nothing describes: worth something, of unknown size, and
// never run ahead of the agent.
var Unknown = Model{
	Class:      Supporting,
	Cost:       Cost{TypicalTokens: 1000, MaxTokens: 8000, LatencyP50: 200 * time.Millisecond},
	SideEffect: Indeterminate,
}

// Speculable reports whether calls of the tool may be made before the agent asks: its
// side effect is pure or read-only and Speculate does not turn that off.
func (m *Model) Speculable() bool {
	return m.SideEffect.Safe() && (m.Speculate == nil || *m.Speculate)
}

// Validate reports the first value a model cannot have.
func (m *Model) Validate() error {
	if m.Class.Weight() == 0 && m.Class != AuditOnly {
		return fmt.Errorf("value_class %q: want one of %v", m.Class, Classes)
	}
	if !knownSideEffect(m.SideEffect) {
		return fmt.Errorf("side_effect %q: want one of %v", m.SideEffect, SideEffects)
	}
	for _, g := range m.FieldGroups {
		if g.Name == "" {
			return fmt.Errorf("field_groups: a group has no name")
		}
		if g.Value < 0 || g.Value > 1 {
			return fmt.Errorf("field_groups %q: value %g is not between 0 and 1", g.Name, g.Value)
		}
	}
	c := m.Cost
	if c.TypicalTokens < 0 || c.MaxTokens < 0 || c.LatencyP50 < 0 || c.Dollars < 0 || c.FreshnessTTL < 0 {
		return fmt.Errorf("cost_model: values cannot be negative")
	}
	if c.MaxTokens > 0 && c.MaxTokens < c.TypicalTokens {
		return fmt.Errorf("cost_model: max_tokens %d is less than typical_tokens %d", c.MaxTokens, c.TypicalTokens)
	}
	for _, f := range m.FollowUps {
		if f.Tool == "" {
			return fmt.Errorf("follow_up: an edge has no tool")
		}
		if f.Probability <= 0 || f.Probability > 1 {
			return fmt.Errorf("follow_up %q: probability %g is not in (0, 1]", f.Tool, f.Probability)
		}
		for arg, p := range f.Args {
			if _, err := ParseProjection(p); err != nil {
				return fmt.Errorf("follow_up %q: args.%s: %w", f.Tool, arg, err)
			}
		}
	}
	if m.FailFastAfter < 0 {
		return fmt.Errorf("fail_fast_after_n %d: cannot be negative", m.FailFastAfter)
	}
	return nil
}

func knownSideEffect(s SideEffect) bool {
	for _, k := range SideEffects {
		if s == k {
			return true
		}
	}
	return false
}
