package llmproxy

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestRequestFacts(t *testing.T) {
	tests := []struct {
		name, body, model, opening string
	}{
		{"anthropic", `{"model":"claude-opus-5-5","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]}`,
			"claude-opus-5-5", `{"role":"user","content":"hi"}`},
		{"openai system first", `{"messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"q"}]},{"role":"user","content":"x"}],"model":"gpt-5"}`,
			"gpt-5", `{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"q"}]}`},
		{"responses input", `{"model":"gpt-5.5-codex","input":[{"type":"message","role":"developer","content":"d"},{"type":"message","role":"user","content":"u"}],"stream":true}`,
			"gpt-5.5-codex", `{"type":"message","role":"developer","content":"d"},{"type":"message","role":"user","content":"u"}`},
		{"whitespace and escapes", " {\n \"system\" : \"a \\\" ] } string\",\n \"messages\" : [ {\"content\":\"\\\\\",\"role\" : \"user\"} ] , \"model\":\"m-1\" }",
			"m-1", `{"content":"\\","role" : "user"}`},
		{"no user message", `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"assistant","content":"a"}]}`,
			"m", `{"role":"system","content":"s"},{"role":"assistant","content":"a"}`},
		{"role in a nested object does not count", `{"messages":[{"content":{"role":"user"},"role":"assistant"},{"role":"user"}]}`,
			"", `{"content":{"role":"user"},"role":"assistant"},{"role":"user"}`},
		{"text for a model", `{"model":"please summarise my secret plan","messages":[]}`, "", ""},
		{"a number for a model", `{"model":12,"messages":[]}`, "", ""},
		{"empty messages", `{"model":"m","messages":[]}`, "m", ""},
		{"not an object", `["model","m"]`, "", ""},
		{"cut short", `{"model":"m","messages":[{"role":"user","content":"h`, "m", ""},
		{"cut short after a message", `{"model":"m","messages":[{"role":"system"},{"ro`, "m", `{"role":"system"}`},
	}
	for _, tt := range tests {
		model, opening := requestFacts([]byte(tt.body))
		if model != tt.model || string(opening) != tt.opening {
			t.Errorf("%s: requestFacts = %q, %q; want %q, %q", tt.name, model, opening, tt.model, tt.opening)
		}
	}
}

// FuzzRequestFacts: on any input requestFacts does not panic, and on a JSON object (in
// canonical form and indented) it finds what encoding/json finds: the model member and
// the messages through the first whose role is "user".
func FuzzRequestFacts(f *testing.F) {
	for _, s := range []string{
		`{"model":"claude-opus-5-5","messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"q\"]"}]}],"model":"gpt-5"}`,
		`{"input":[{"role":"developer"},{"role":"user"}],"model":"x"}`,
		`{"model":"m","messages":[{"content":{"role":"user"}},{"role":"user","n":[1,2.5e3,true,null]}]}`,
		`{"input":"text","messages":[{"role":"user"}],"model":"m"}`,
		`{"input":[{"role":"user"}],"messages":[{"role":"system"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		requestFacts(data) // must not panic on anything
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil || obj == nil {
			return
		}
		canonical, err := json.Marshal(obj)
		if err != nil {
			return
		}
		wantModel, wantOpening, ok := referenceFacts(obj)
		if !ok {
			return
		}
		var indented bytes.Buffer
		json.Indent(&indented, canonical, "", "  ")
		for _, body := range [][]byte{canonical, indented.Bytes()} {
			model, opening := requestFacts(body)
			if model != wantModel {
				t.Fatalf("%s: model %q, want %q", body, model, wantModel)
			}
			if got := compactJSON(t, opening); got != wantOpening {
				t.Fatalf("%s: opening %s, want %s", body, got, wantOpening)
			}
		}
	})
}

// referenceFacts finds the model and opening of obj with encoding/json; ok is false when
// a message has duplicate keys, where which "role" counts is a matter of taste.
func referenceFacts(obj map[string]json.RawMessage) (model, opening string, ok bool) {
	if raw, found := obj["model"]; found {
		model = modelID(compactRaw(raw))
	}
	var elems []json.RawMessage
	for _, key := range []string{"input", "messages"} { // the order of canonical JSON
		if list := bytes.TrimSpace(obj[key]); len(list) > 0 && list[0] == '[' {
			json.Unmarshal(list, &elems)
			break
		}
	}
	if len(elems) == 0 {
		return model, "", true
	}
	var kept []json.RawMessage
	for _, e := range elems {
		if duplicateKeys(e) {
			return "", "", false
		}
		kept = append(kept, e)
		var m struct {
			Role *string `json:"role"`
		}
		if json.Unmarshal(e, &m) == nil && m.Role != nil && *m.Role == "user" && bytes.HasPrefix(bytes.TrimSpace(e), []byte("{")) {
			break
		}
	}
	out, _ := json.Marshal(kept)
	return model, string(out), true
}

func compactRaw(raw []byte) []byte {
	var b bytes.Buffer
	json.Compact(&b, raw)
	return b.Bytes()
}

// compactJSON compacts the elements opening holds into a JSON array, "" for none.
func compactJSON(t *testing.T, opening []byte) string {
	if opening == nil {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, append(append([]byte("["), opening...), ']')); err != nil {
		t.Fatalf("opening %s is not a list of JSON values: %v", opening, err)
	}
	return b.String()
}

// duplicateKeys reports whether the JSON object raw has a key twice at its top level.
func duplicateKeys(raw []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.Token() // {
	n := 0
	for d.More() {
		d.Token() // key
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return false
		}
		n++
	}
	return n != len(m)
}
