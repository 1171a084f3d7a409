package retrieve

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBadInput ranks and packs tasks no issue template produces: a
// megabyte of text, nothing but a stack trace, a task in another
// language, binary garbage. Each gets an answer (the definition it
// names, when it names one) in a pack within its budget that renders as
// valid UTF-8 in every format, well-formed XML included; none crashes.
func TestBadInput(t *testing.T) {
	e, _ := e2eEngine(t)
	garbage := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(13, 13))
	for i := range garbage {
		garbage[i] = byte(rng.UintN(256))
	}
	trace := `Traceback (most recent call last):
  File "/home/ana/src/sync/sync.py", line 6, in <module>
    resp = client.get("exports/latest")
  File "/home/ana/src/skiff/skiff/client.py", line 43, in get
    return self.request("GET", url, params=params, headers=headers)
  File "/home/ana/src/skiff/skiff/client.py", line 72, in request
    response = self._follow_redirects(method, response, merged, body)
  File "/home/ana/src/skiff/skiff/client.py", line 105, in _follow_redirects
    location = urls.join(response.url, response.headers["Location"])
  File "/home/ana/src/skiff/skiff/headers.py", line 46, in __getitem__
    raise KeyError(name)
KeyError: 'Location'`
	tests := []struct {
		name string
		task string
		want string // a definition in the top 3, as path:Qual; "" for any answer
	}{
		{"one megabyte", "parse_duration rejects \"90m\"\n" + strings.Repeat("the log goes on and on, nothing in it names code\n", 1<<20/50), "skiff/config/schema.py:parse_duration"},
		{"only a stack trace", trace, "skiff/headers.py:Headers.__getitem__"},
		{"another language", "解析配置时 parse_duration 对“90m”抛出异常，应该返回九十分钟。", "skiff/config/schema.py:parse_duration"},
		{"another language, no code", "При чтении конфигурации программа падает, если значение пустое.", ""},
		{"binary garbage", string(garbage), ""},
		{"garbage with a NUL title", "\x00\xff\xfe<\"&>\x1b[31m\n\x00", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := e.Rank(t.Context(), tt.task)
			if err != nil {
				t.Fatalf("Rank: %v", err)
			}
			if tt.want != "" {
				if n := rankOf(r.Defs, []string{tt.want}); n < 1 || n > 3 {
					t.Errorf("%s ranks %d, want top 3; top: %s", tt.want, n, topOf(r.Defs))
				}
			}
			const budget = 2000
			pack, err := e.Context(t.Context(), Request{Task: tt.task, Budget: budget})
			if err != nil {
				t.Fatalf("Context: %v", err)
			}
			if pack.Tokens > budget {
				t.Errorf("pack of %d tokens over a budget of %d", pack.Tokens, budget)
			}
			for _, f := range []Format{XML, Markdown, JSON} {
				var buf bytes.Buffer
				if err := pack.Render(&buf, f); err != nil {
					t.Fatalf("Render %s: %v", f, err)
				}
				out := buf.Bytes()
				if !utf8.Valid(out) {
					t.Errorf("%s: rendered pack is not valid UTF-8", f)
				}
				switch f {
				case JSON:
					if !json.Valid(out) {
						t.Errorf("json: rendered pack is not valid JSON")
					}
				case XML:
					checkXMLHeader(t, out)
				}
			}
		})
	}
}

// checkXMLHeader parses the opening tag of an XML pack (card text is
// raw by design, so only the tag that carries the task's title is
// checked) and fails when it is not well-formed.
func checkXMLHeader(t *testing.T, out []byte) {
	t.Helper()
	line, _, _ := bytes.Cut(out, []byte("\n"))
	dec := xml.NewDecoder(bytes.NewReader(append(bytes.Clone(line), []byte("</context>")...)))
	for {
		_, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return
			}
			t.Errorf("xml: opening tag %q: %v", line, err)
			return
		}
	}
}
