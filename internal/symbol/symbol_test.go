package symbol

import (
	"encoding/json"
	"testing"
)

func TestKindNames(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
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
		text, _ := k.MarshalText()
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
}

func TestSymbolJSON(t *testing.T) {
	s := Symbol{Name: "m", Qual: "C.m", Kind: Method, Path: "a.py", Visibility: Private,
		Span: Span{StartLine: 3, EndLine: 5, StartByte: 10, EndByte: 40}, Doc: "\n  First line.\nMore."}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Symbol
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back != s {
		t.Errorf("JSON round trip: %+v, want %+v", back, s)
	}
	if got := s.DocLine(); got != "First line." {
		t.Errorf("DocLine = %q", got)
	}
	if got := s.Location(); got != "a.py:3" {
		t.Errorf("Location = %q", got)
	}
	if !s.Span.Contains(Span{StartByte: 10, EndByte: 20}) || s.Span.Contains(Span{StartByte: 5, EndByte: 20}) {
		t.Error("Span.Contains")
	}
}

func TestRefKindAndVisibilityText(t *testing.T) {
	for _, k := range []RefKind{RefName, RefCall, RefType, RefMember} {
		var u RefKind
		text, _ := k.MarshalText()
		if err := u.UnmarshalText(text); err != nil || u != k {
			t.Errorf("RefKind round trip of %v: %v %v", k, u, err)
		}
	}
	for _, v := range []Visibility{Public, Private, Protected, Internal} {
		var u Visibility
		text, _ := v.MarshalText()
		if err := u.UnmarshalText(text); err != nil || u != v {
			t.Errorf("Visibility round trip of %v: %v %v", v, u, err)
		}
	}
}
