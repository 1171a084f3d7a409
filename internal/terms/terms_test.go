package terms

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitIdentifier(t *testing.T) {
	for in, want := range map[string][]string{
		"parseHTTPHeader2":       {"parse", "HTTP", "Header", "2"},
		"parse_http_header":      {"parse", "http", "header"},
		"__init__":               {"init"},
		"XMLHttpRequest":         {"XML", "Http", "Request"},
		"prepare_content_length": {"prepare", "content", "length"},
		"a.b.c":                  {"a", "b", "c"},
		"ÉtatCivil":              {"État", "Civil"},
		"":                       nil,
	} {
		if diff := cmp.Diff(want, SplitIdentifier(in)); diff != "" {
			t.Errorf("SplitIdentifier(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestTerms(t *testing.T) {
	for in, want := range map[string][]string{
		"requests.get is ALWAYS sending content-length": {"request", "get", "alway", "send", "content", "length"},
		"def parse_headers(self, raw): return None":     {"pars", "header", "raw"},
		"TypeError: unsupported operand type(s) for +":  {"type", "error", "unsupport", "operand", "type"},
		"x = 42 + y_1":                                nil,
		"parsing parsed parses parse":                 {"pars", "pars", "pars", "pars"},
		"dependencies classes indexes matches status": {"dependency", "class", "index", "match", "status"},
	} {
		if diff := cmp.Diff(want, Terms(in)); diff != "" {
			t.Errorf("Terms(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestStemAgreement(t *testing.T) {
	// Inflections meet their base form.
	for _, group := range [][]string{
		{"parse", "parses", "parsed", "parsing"},
		{"header", "headers"},
		{"encode", "encoded", "encoding", "encodes"},
		{"stop", "stopped", "stopping"},
		{"value", "values"},
		{"class", "classes"},
	} {
		want := Stem(group[0])
		for _, w := range group[1:] {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q, but Stem(%q) = %q", w, got, group[0], want)
			}
		}
	}
}

func FuzzTerms(f *testing.F) {
	f.Add("parseHTTPHeader2 __init__ x.y.z ÉtatCivil \xff\xfe")
	f.Fuzz(func(t *testing.T, s string) {
		Scan(s, func(term string) {
			if len(term) < 2 || len(term) > MaxLen {
				t.Fatalf("term %q out of bounds", term)
			}
		})
	})
}

func BenchmarkScan(b *testing.B) {
	src := `func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := s.parseRequestHeaders(r); err != nil { http.Error(w, "bad header", 400); return }
	s.handler.ServeHTTP(w, r) // serve the parsed request
}
`
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Scan(src, func(string) {})
	}
}
