package toolvalue

import (
	"encoding/json"
	"reflect"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func TestResolveRightWinsAndSpecificity(t *testing.T) {
	builtin := Layer{
		{Pattern: "*__read_text_file", Origin: "builtin", Spec: Spec{Class: ptr(Critical), SideEffect: ptr(ReadOnly), TypicalTokens: ptr(600)}},
	}
	user := Layer{
		{Pattern: "fs__read_text_file", Origin: "config.toml:9", Spec: Spec{TypicalTokens: ptr(900)}},
		{Pattern: "*", Origin: "config.toml:3", Spec: Spec{TypicalTokens: ptr(50), Speculate: ptr(false)}},
		{Pattern: "fs__*", Origin: "config.toml:6", Spec: Spec{RateLimitHost: ptr("local")}},
	}
	m, prov := Resolve("fs__read_text_file", builtin, user)
	if m.Class != Critical || m.SideEffect != ReadOnly || m.Cost.TypicalTokens != 900 || m.RateLimitHost != "local" {
		t.Errorf("model = %+v", m)
	}
	if m.Speculable() {
		t.Error("speculate = false from the user's \"*\" rule was not applied")
	}
	want := Provenance{
		"value_class": "builtin", "side_effect": "builtin", "cost_model.typical_tokens": "config.toml:9",
		"speculate": "config.toml:3", "rate_limit_host": "config.toml:6",
	}
	if !reflect.DeepEqual(prov, want) {
		t.Errorf("provenance = %v, want %v", prov, want)
	}
	if m, _ := Resolve("other", builtin); !reflect.DeepEqual(m, Unknown) || m.Speculable() {
		t.Errorf("unmatched tool = %+v, want Unknown, not speculable", m)
	}
}

func TestPatternIsOnlyStar(t *testing.T) {
	r := Rule{Pattern: "a[1]?*"}
	if !r.Matches("a[1]?x") || r.Matches("a1x") {
		t.Error("[ and ? must match themselves")
	}
}

func TestSpeculateCannotMakeMutatingSafe(t *testing.T) {
	m, _ := Resolve("Bash", Layer{{Pattern: "Bash", Spec: Spec{SideEffect: ptr(Indeterminate), Speculate: ptr(true)}}})
	if m.Speculable() {
		t.Error("speculate = true made an indeterminate tool speculable")
	}
}

func TestFollowUpApply(t *testing.T) {
	var structured any
	json.Unmarshal([]byte(`{"items":[{"number":1},{"number":2},{"number":3},{"number":4}]}`), &structured)
	src := &Source{Args: map[string]any{"owner": "o", "repo": "r"}, Structured: structured}
	f := FollowUp{Tool: "get_issue", Probability: 0.4, Args: map[string]string{
		"owner": "arg.owner", "repo": "arg.repo", "issue_number": "result.items[].number",
	}}
	got, err := f.Apply(src, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[2]["issue_number"] != 3.0 || got[0]["owner"] != "o" {
		t.Errorf("Apply = %v", got)
	}
	f.Args["milestone"] = "result.milestone"
	if got, _ := f.Apply(src, 3); got != nil {
		t.Errorf("an argument with no value must leave no call, got %v", got)
	}
	if _, err := ParseProjection("result.a[]b"); err == nil {
		t.Error("bad path accepted")
	}
}

func TestValidate(t *testing.T) {
	m := Unknown
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	m.FollowUps = []FollowUp{{Tool: "x", Probability: 1.5}}
	if m.Validate() == nil {
		t.Error("probability 1.5 accepted")
	}
	m = Unknown
	m.Cost.MaxTokens = 10
	if m.Validate() == nil {
		t.Error("max_tokens below typical accepted")
	}
}
