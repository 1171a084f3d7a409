package intent

import (
	"encoding/json"
	"testing"
)

func TestKindNames(t *testing.T) {
	seen := map[string]bool{}
	for k := range NumKinds {
		name := k.String()
		if seen[name] {
			t.Errorf("two kinds are called %q", name)
		}
		seen[name] = true
		back, ok := ParseKind(name)
		if !ok || back != k {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", name, back, ok, k)
		}
		var u Kind
		text, err := k.MarshalText()
		if err != nil {
			t.Fatalf("MarshalText(%v): %v", k, err)
		}
		if err := u.UnmarshalText(text); err != nil || u != k {
			t.Errorf("text round trip of %v: %v, %v", k, u, err)
		}
	}
	if _, ok := ParseKind("gizmo"); ok {
		t.Error("ParseKind accepted an unknown name")
	}
	if got := Kind(200).String(); got != "kind(200)" {
		t.Errorf("unknown kind prints as %q", got)
	}
	if _, err := Kind(200).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown kind succeeded")
	}
}

func TestResultJSON(t *testing.T) {
	r := Detect("who calls ParseKind?")
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("unmarshal %s: %v", data, err)
	}
	if back.Kind != Usage || back.Confidence != r.Confidence || back.Scores != r.Scores {
		t.Errorf("round trip of %s gave %+v", data, back)
	}
}
