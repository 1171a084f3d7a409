package config

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// A ToolTable is one [tools."<name>"] table: settings of the value model of the tools
// whose agent-visible names match <name> ("Read", "fs__read_text_file"; "*" matches any run
// of characters, so "*" is every tool and "github__*" every tool of one upstream). Every
// key is optional: a key left out keeps what the built-in defaults or the upstream's tool
// annotations say (see package toolvalue). A list (field_groups, follow_up, invalidates)
// replaces the list below it.
//
// Tables of the user file and the repository file merge key by key like every other
// setting, the repository's winning, except that a repository's .winnow.toml cannot set
// what would make the gateway call a tool the agent did not call: follow_up, speculate =
// true, or a side_effect of "pure" or "read_only" ([UserOnly]).
type ToolTable struct {
	ValueClass    *string          `toml:"value_class,omitempty" json:"value_class,omitempty"`
	SideEffect    *string          `toml:"side_effect,omitempty" json:"side_effect,omitempty"`
	Speculate     *bool            `toml:"speculate,omitempty" json:"speculate,omitempty"`
	FieldGroups   []ToolFieldGroup `toml:"field_groups" json:"field_groups,omitempty"`
	CostModel     *ToolCost        `toml:"cost_model,omitempty" json:"cost_model,omitempty"`
	FollowUp      []ToolFollowUp   `toml:"follow_up" json:"follow_up,omitempty"`
	Invalidates   []string         `toml:"invalidates" json:"invalidates,omitempty"`
	FailFastAfter *int             `toml:"fail_fast_after_n,omitempty" json:"fail_fast_after_n,omitempty"`
	RateLimitHost *string          `toml:"rate_limit_host,omitempty" json:"rate_limit_host,omitempty"`

	// Origins maps each key the table sets ("value_class", "cost_model.typical_tokens") to
	// the file and line that set it, "path:line".
	Origins map[string]string `toml:"-" json:"-"`
}

// A ToolFieldGroup names fields of a tool's JSON results ("*_url", "user.avatar_url") and
// what they are worth to the agent, 0 to 1; default says they are included unless the
// intent or a budget leaves them out.
type ToolFieldGroup struct {
	Name    string   `toml:"name" json:"name"`
	Fields  []string `toml:"fields" json:"fields"`
	Value   float64  `toml:"value" json:"value"`
	Default bool     `toml:"default" json:"default"`
}

// ToolCost is a tool's cost model: the size of its results in tokens, typical and largest,
// its latency at the median, its price per call and how long a result stays valid (0:
// until a call that invalidates it).
type ToolCost struct {
	TypicalTokens *int     `toml:"typical_tokens,omitempty" json:"typical_tokens,omitempty"`
	MaxTokens     *int     `toml:"max_tokens,omitempty" json:"max_tokens,omitempty"`
	LatencyMS     *int     `toml:"latency_ms,omitempty" json:"latency_ms,omitempty"`
	Dollars       *float64 `toml:"dollars,omitempty" json:"dollars,omitempty"`
	FreshnessTTLS *int     `toml:"freshness_ttl_s,omitempty" json:"freshness_ttl_s,omitempty"`
}

// A ToolFollowUp is a call that usually follows a call of the tool: the tool ("*__<name>"
// for a tool of the same upstream), the probability that the agent makes it, and its
// arguments, each a projection of the current call (arg.<name>, result.paths, result.urls,
// result.<path>, const:<json>; see toolvalue.Projection).
type ToolFollowUp struct {
	Tool        string            `toml:"tool" json:"tool"`
	Probability float64           `toml:"probability" json:"probability"`
	Args        map[string]string `toml:"args,omitempty" json:"args,omitempty"`
}

// toolsKey is the key of the tool tables.
const toolsKey = "tools"

// ToolRules returns the tool tables as the user's layer of the tools' value models, one
// rule per table and file that set its keys, each with the Origin "path:line" of the keys
// it sets (the line of the first of them).
func (c *Config) ToolRules() toolvalue.Layer {
	var l toolvalue.Layer
	for _, name := range slices.Sorted(maps.Keys(c.Tools)) {
		l = append(l, c.Tools[name].rules(name)...)
	}
	return l
}

// rules splits t into one rule per origin, since a rule has one: the keys from the user
// file and those from the repository file are two rules for the same pattern.
func (t ToolTable) rules(name string) toolvalue.Layer {
	byOrigin := map[string]*toolvalue.Spec{}
	var order []string
	spec := func(key string) *toolvalue.Spec {
		o := t.Origins[key]
		if byOrigin[o] == nil {
			byOrigin[o] = &toolvalue.Spec{}
			order = append(order, o)
		}
		return byOrigin[o]
	}
	if t.ValueClass != nil {
		spec("value_class").Class = ptrTo(toolvalue.Class(*t.ValueClass))
	}
	if t.SideEffect != nil {
		spec("side_effect").SideEffect = ptrTo(toolvalue.SideEffect(*t.SideEffect))
	}
	if t.Speculate != nil {
		spec("speculate").Speculate = ptrTo(*t.Speculate)
	}
	if t.FieldGroups != nil {
		s := spec("field_groups")
		s.FieldGroups = []toolvalue.FieldGroup{}
		for _, g := range t.FieldGroups {
			s.FieldGroups = append(s.FieldGroups, toolvalue.FieldGroup{Name: g.Name, Fields: slices.Clone(g.Fields), Value: g.Value, Default: g.Default})
		}
	}
	if c := t.CostModel; c != nil {
		if c.TypicalTokens != nil {
			spec("cost_model.typical_tokens").TypicalTokens = ptrTo(*c.TypicalTokens)
		}
		if c.MaxTokens != nil {
			spec("cost_model.max_tokens").MaxTokens = ptrTo(*c.MaxTokens)
		}
		if c.LatencyMS != nil {
			spec("cost_model.latency_ms").LatencyP50 = ptrTo(time.Duration(*c.LatencyMS) * time.Millisecond)
		}
		if c.Dollars != nil {
			spec("cost_model.dollars").Dollars = ptrTo(*c.Dollars)
		}
		if c.FreshnessTTLS != nil {
			spec("cost_model.freshness_ttl_s").FreshnessTTL = ptrTo(time.Duration(*c.FreshnessTTLS) * time.Second)
		}
	}
	if t.FollowUp != nil {
		s := spec("follow_up")
		s.FollowUps = []toolvalue.FollowUp{}
		for _, f := range t.FollowUp {
			s.FollowUps = append(s.FollowUps, toolvalue.FollowUp{Tool: f.Tool, Probability: f.Probability, Args: maps.Clone(f.Args)})
		}
	}
	if t.Invalidates != nil {
		spec("invalidates").Invalidates = slices.Clone(t.Invalidates)
	}
	if t.FailFastAfter != nil {
		spec("fail_fast_after_n").FailFastAfter = ptrTo(*t.FailFastAfter)
	}
	if t.RateLimitHost != nil {
		spec("rate_limit_host").RateLimitHost = ptrTo(*t.RateLimitHost)
	}
	l := make(toolvalue.Layer, 0, len(order))
	for _, o := range order {
		l = append(l, toolvalue.Rule{Pattern: name, Origin: o, Spec: *byOrigin[o]})
	}
	return l
}

func ptrTo[T any](v T) *T { return &v }

// setKeys lists the keys t sets, as Origins names them.
func (t ToolTable) setKeys() []string {
	var keys []string
	add := func(key string, set bool) {
		if set {
			keys = append(keys, key)
		}
	}
	add("value_class", t.ValueClass != nil)
	add("side_effect", t.SideEffect != nil)
	add("speculate", t.Speculate != nil)
	add("field_groups", t.FieldGroups != nil)
	if c := t.CostModel; c != nil {
		add("cost_model.typical_tokens", c.TypicalTokens != nil)
		add("cost_model.max_tokens", c.MaxTokens != nil)
		add("cost_model.latency_ms", c.LatencyMS != nil)
		add("cost_model.dollars", c.Dollars != nil)
		add("cost_model.freshness_ttl_s", c.FreshnessTTLS != nil)
	}
	add("follow_up", t.FollowUp != nil)
	add("invalidates", t.Invalidates != nil)
	add("fail_fast_after_n", t.FailFastAfter != nil)
	add("rate_limit_host", t.RateLimitHost != nil)
	return keys
}

// over returns t applied over base: each key t sets replaces base's, with its origin.
func (t ToolTable) over(base ToolTable) ToolTable {
	out := base
	out.Origins = maps.Clone(base.Origins)
	if out.Origins == nil {
		out.Origins = map[string]string{}
	}
	pick(&out.ValueClass, t.ValueClass)
	pick(&out.SideEffect, t.SideEffect)
	pick(&out.Speculate, t.Speculate)
	pick(&out.FailFastAfter, t.FailFastAfter)
	pick(&out.RateLimitHost, t.RateLimitHost)
	if t.FieldGroups != nil {
		out.FieldGroups = t.FieldGroups
	}
	if t.FollowUp != nil {
		out.FollowUp = t.FollowUp
	}
	if t.Invalidates != nil {
		out.Invalidates = t.Invalidates
	}
	if t.CostModel != nil {
		c := ToolCost{}
		if base.CostModel != nil {
			c = *base.CostModel
		}
		pick(&c.TypicalTokens, t.CostModel.TypicalTokens)
		pick(&c.MaxTokens, t.CostModel.MaxTokens)
		pick(&c.LatencyMS, t.CostModel.LatencyMS)
		pick(&c.Dollars, t.CostModel.Dollars)
		pick(&c.FreshnessTTLS, t.CostModel.FreshnessTTLS)
		out.CostModel = &c
	}
	for _, k := range t.setKeys() {
		out.Origins[k] = t.Origins[k]
	}
	return out
}

func pick[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

// layerTools returns the tool tables of one file (decoded, as md lists its keys) applied
// over the tables of the files before it, each key's origin the file and line that set it.
func layerTools(below, file map[string]ToolTable, doc, name string, md toml.MetaData) map[string]ToolTable {
	if len(file) == 0 {
		return below
	}
	origins := toolOrigins(doc, name, md)
	out := maps.Clone(below)
	if out == nil {
		out = map[string]ToolTable{}
	}
	for tool, t := range file {
		set := t.setKeys()
		t.Origins = make(map[string]string, len(set))
		for _, k := range set {
			t.Origins[k] = cmp.Or(origins[tool][k], origins[tool][""], name)
		}
		out[tool] = t.over(below[tool])
	}
	return out
}

// toolOrigins maps each tool table of doc, and each key in it, to "name:line" of the first
// place the document writes it; the key "" is the table itself. Keys are folded to lower
// case, as the decoder matches them to fields.
func toolOrigins(doc, name string, md toml.MetaData) map[string]map[string]string {
	lines := make(map[string][]int)
	for _, kl := range keyLines(doc) {
		lines[kl.key] = append(lines[kl.key], kl.line)
	}
	seen := map[string]int{}
	out := map[string]map[string]string{}
	for _, k := range md.Keys() {
		s := k.String()
		n := seen[s]
		seen[s]++
		if len(k) < 2 || !strings.EqualFold(k[0], toolsKey) || n >= len(lines[s]) {
			continue
		}
		key := ""
		switch {
		case len(k) >= 4 && strings.EqualFold(k[2], "cost_model"):
			key = "cost_model." + strings.ToLower(k[3])
		case len(k) >= 3:
			key = strings.ToLower(k[2])
		}
		if out[k[1]] == nil {
			out[k[1]] = map[string]string{}
		}
		if _, ok := out[k[1]][key]; !ok {
			out[k[1]][key] = fmt.Sprintf("%s:%d", name, lines[s][n])
		}
	}
	return out
}

// validateTools reports every invalid value of the tool tables, each naming its key, the
// value, what is allowed, and where it was written.
func validateTools(tools map[string]ToolTable) []error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(tools)) {
		errs = append(errs, tools[name].validate(name)...)
	}
	return errs
}

func (t ToolTable) validate(name string) []error {
	var errs []error
	bad := func(key string, val any, format string, args ...any) {
		full := toml.Key{toolsKey, name}.String()
		if key != "" {
			full += "." + key
		}
		msg := fmt.Sprintf(format, args...)
		if at := t.Origins[strings.SplitN(key, "[", 2)[0]]; at != "" {
			msg += " (" + at + ")"
		}
		if val == nil {
			errs = append(errs, fmt.Errorf("%s: %s", full, msg))
			return
		}
		errs = append(errs, fmt.Errorf("%s = %s: %s", full, tomlValue(val), msg))
	}
	if strings.TrimSpace(name) == "" {
		bad("", nil, `a table needs a tool name or a pattern such as "github__*" or "*"`)
	}
	if v := t.ValueClass; v != nil && !slices.Contains(toolvalue.Classes, toolvalue.Class(*v)) {
		bad("value_class", *v, "must be %s", quotedList(toStrings(toolvalue.Classes)))
	}
	if v := t.SideEffect; v != nil && !slices.Contains(toolvalue.SideEffects, toolvalue.SideEffect(*v)) {
		bad("side_effect", *v, "must be %s", quotedList(toStrings(toolvalue.SideEffects)))
	}
	seen := map[string]bool{}
	for i, g := range t.FieldGroups {
		key := fmt.Sprintf("field_groups[%d]", i)
		switch {
		case strings.TrimSpace(g.Name) == "":
			bad(key+".name", g.Name, "every field group needs a name")
		case seen[g.Name]:
			bad(key+".name", g.Name, "two field groups have this name")
		}
		seen[g.Name] = true
		if len(g.Fields) == 0 {
			bad(key+".fields", []string{}, `list the fields of the group, such as ["*_url", "node_id"]`)
		}
		for j, f := range g.Fields {
			if strings.TrimSpace(f) == "" {
				bad(fmt.Sprintf("%s.fields[%d]", key, j), f, "a field name must not be empty")
			}
		}
		if g.Value < 0 || g.Value > 1 {
			bad(key+".value", g.Value, "must be between 0 and 1")
		}
	}
	if c := t.CostModel; c != nil {
		nonNegative := func(key string, v *int) {
			if v != nil && *v < 0 {
				bad("cost_model."+key, *v, "must not be negative")
			}
		}
		nonNegative("typical_tokens", c.TypicalTokens)
		nonNegative("max_tokens", c.MaxTokens)
		nonNegative("latency_ms", c.LatencyMS)
		nonNegative("freshness_ttl_s", c.FreshnessTTLS)
		if c.Dollars != nil && *c.Dollars < 0 {
			bad("cost_model.dollars", *c.Dollars, "must not be negative")
		}
		if c.TypicalTokens != nil && c.MaxTokens != nil && *c.MaxTokens < *c.TypicalTokens {
			bad("cost_model.max_tokens", *c.MaxTokens, "must not be less than typical_tokens = %d", *c.TypicalTokens)
		}
	}
	for i, f := range t.FollowUp {
		key := fmt.Sprintf("follow_up[%d]", i)
		if strings.TrimSpace(f.Tool) == "" {
			bad(key+".tool", f.Tool, `name the tool that follows, such as "Read" or "*__read_text_file" (a tool of the same upstream)`)
		}
		if f.Probability <= 0 || f.Probability > 1 {
			bad(key+".probability", f.Probability, "must be more than 0 and at most 1")
		}
		for _, arg := range slices.Sorted(maps.Keys(f.Args)) {
			if _, err := toolvalue.ParseProjection(f.Args[arg]); err != nil {
				bad(key+".args."+arg, f.Args[arg], "%s", strings.TrimPrefix(err.Error(), fmt.Sprintf("projection %q: ", f.Args[arg])))
			}
		}
	}
	for i, p := range t.Invalidates {
		if strings.TrimSpace(p) == "" {
			bad(fmt.Sprintf("invalidates[%d]", i), p, `a tool name or pattern must not be empty`)
		}
	}
	if v := t.FailFastAfter; v != nil && *v < 0 {
		bad("fail_fast_after_n", *v, "must be 0 (never) or more")
	}
	return errs
}

func toStrings[S ~string](s []S) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

// toolKnownKeys returns the keys of a tool table under each tool name undecoded keys are
// under, so that a misspelled key in a tool table gets a suggestion (the defaults have no
// tool tables to read them from).
func toolKnownKeys(undecoded []toml.Key) []toml.Key {
	var out []toml.Key
	names := map[string]bool{}
	for _, k := range undecoded {
		if len(k) < 3 || !strings.EqualFold(k[0], toolsKey) || names[k[1]] {
			continue
		}
		names[k[1]] = true
		for _, f := range []string{"value_class", "side_effect", "speculate", "field_groups", "cost_model", "follow_up",
			"invalidates", "fail_fast_after_n", "rate_limit_host"} {
			out = append(out, toml.Key{k[0], k[1], f})
		}
		for _, f := range []string{"typical_tokens", "max_tokens", "latency_ms", "dollars", "freshness_ttl_s"} {
			out = append(out, toml.Key{k[0], k[1], "cost_model", f})
		}
		for _, f := range []string{"name", "fields", "value", "default"} {
			out = append(out, toml.Key{k[0], k[1], "field_groups", f})
		}
		for _, f := range []string{"tool", "probability", "args"} {
			out = append(out, toml.Key{k[0], k[1], "follow_up", f})
		}
	}
	return out
}
