package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/tokens"
)

func TestListTools(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), nil))
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	required := make(map[string][]any)
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		schema, ok := tl.InputSchema.(map[string]any)
		if !ok {
			t.Fatalf("%s: input schema %T", tl.Name, tl.InputSchema)
		}
		required[tl.Name], _ = schema["required"].([]any)
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
			t.Errorf("%s: not marked read-only: %+v", tl.Name, tl.Annotations)
		}
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(ToolNames()))
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	wantRequired := map[string][]any{
		toolContext: {"task"}, toolFindSymbol: {"name"}, toolOutline: {"path"}, toolReferences: {"name"},
	}
	if diff := cmp.Diff(wantRequired, required); diff != "" {
		t.Errorf("required arguments (-want +got):\n%s", diff)
	}
	docs := map[string]string{toolContext: contextDoc, toolFindSymbol: findSymbolDoc, toolOutline: outlineDoc, toolReferences: referencesDoc}
	for _, tl := range res.Tools {
		if tl.Description != strings.TrimSpace(docs[tl.Name]) || !strings.Contains(tl.Description, "Example") {
			t.Errorf("%s: the description is not its embedded markdown with an example: %q", tl.Name, tl.Description)
		}
	}
	if got := cs.InitializeResult().Instructions; !strings.Contains(got, "find_symbol") {
		t.Errorf("server instructions: %q", got)
	}
}

func TestContextTool(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), nil))
	text, isErr := call(t, cs, toolContext, map[string]any{"task": "parse_retry_after returns the wrong delay"})
	if isErr {
		t.Fatalf("context: %s", text)
	}
	mustContain(t, "context", text, `<context task="parse_retry_after returns the wrong delay"`,
		`name="parse_retry_after" loc="pkg/headers.py:18-20"`, "return int(value)", "</context>")
	if i, j := strings.Index(text, `name="parse_retry_after"`), strings.Index(text, `name="Headers"`); i < 0 || j >= 0 && j < i {
		t.Errorf("parse_retry_after is not the first definition:\n%s", text)
	}

	text, _ = call(t, cs, toolContext, map[string]any{"task": "Headers.get ignores case", "format": "md", "budget": 400})
	mustContain(t, "context as markdown", text, "# Context: Headers.get ignores case", "pkg/headers.py:")
	if n := tokens.Count(tokens.O200k, text); n > 400 {
		t.Errorf("a 400-token context takes %d tokens", n)
	}

	text, _ = call(t, cs, toolContext, map[string]any{"task": "Headers", "budget": 100000})
	mustContain(t, "context over the cap", text, "Note: budget 100000 is above this server's output cap", `budget="7936"`)

	for _, c := range []struct {
		args any
		want string
	}{
		{map[string]any{"task": "  "}, "the task is empty"},
		{map[string]any{"task": "x", "format": "yaml"}, `unknown format "yaml"`},
		{map[string]any{"task": "x", "budget": -1}, "budget -1"},
		{map[string]any{"task": "x", "budget": 3}, "token budget too small"},
		{map[string]any{"task": "zzzz qqqq wibble"}, "nothing in the repository matched the task"},
		{map[string]any{"task": strings.Repeat("a ", maxTaskBytes)}, "the limit is"},
	} {
		text, isErr := call(t, cs, toolContext, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("context %.60v: error %v, %q; want an error saying %q", c.args, isErr, text, c.want)
		}
	}
}

func TestFindSymbolTool(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), nil))
	text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "Headers.get"})
	if isErr {
		t.Fatalf("find_symbol: %s", text)
	}
	mustContain(t, "find_symbol Headers.get", text, "1. method Headers.get  pkg/headers.py:10  (exact match)",
		"def get(self, name, default=None)", "doc: Return the first value of a header, ignoring case.")
	if strings.Contains(text, "for key, value") {
		t.Errorf("a body without body:true:\n%s", text)
	}

	text, _ = call(t, cs, toolFindSymbol, map[string]any{"name": "Headers.get", "body": true})
	mustContain(t, "find_symbol with body", text, "2. method store.Store.Get  store/store.go:9  (name match)",
		"source of Headers.get, pkg/headers.py:10-15:\n```\n    def get(self, name, default=None):\n",
		"                return value\n        return default\n```")
	if strings.Contains(text, "source of store.Store.Get") {
		t.Errorf("the body of a looser match than the first:\n%s", text)
	}

	text, _ = call(t, cs, toolFindSymbol, map[string]any{"name": "Hedaers"})
	mustContain(t, "fuzzy find_symbol", text, "class Headers  pkg/headers.py:4  (fuzzy match)")

	text, _ = call(t, cs, toolFindSymbol, map[string]any{"name": "get", "kind": " Method,function"})
	mustContain(t, "find_symbol by kind", text, "method Headers.get  pkg/headers.py:10", "method store.Store.Get  store/store.go:9")
	text, _ = call(t, cs, toolFindSymbol, map[string]any{"name": "Store", "kind": "struct"})
	mustContain(t, "find_symbol by kind", text, "1 definition for \"Store\"", "struct store.Store  store/store.go:4")

	text, _ = call(t, cs, toolFindSymbol, map[string]any{"name": "get", "limit": 1})
	if n := strings.Count(text, " match)\n"); n != 1 {
		t.Errorf("limit 1 gives %d matches:\n%s", n, text)
	}

	for _, c := range []struct {
		args any
		want string
	}{
		{map[string]any{"name": ""}, "give a definition's name"},
		{map[string]any{"name": "Headers."}, "give a definition's name"},
		{map[string]any{"name": "Headers", "kind": "gizmo"}, `unknown kind "gizmo"; kinds are function, method`},
		{map[string]any{"name": "Headers", "limit": 101}, "limit 101: give a number from 1 to 100"},
		{map[string]any{"name": "Headers", "limit": -2}, "limit -2"},
		{map[string]any{"name": "NoSuchThing", "exact": true}, `no definition matches "NoSuchThing" with exact`},
		{map[string]any{"name": "get", "kind": "class"}, `no definition matches "get" with kind class`},
	} {
		text, isErr := call(t, cs, toolFindSymbol, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("find_symbol %v: error %v, %q; want an error saying %q", c.args, isErr, text, c.want)
		}
	}
}

func TestFindSymbolLongBody(t *testing.T) {
	dir := fixture(t)
	var src strings.Builder
	src.WriteString("def long_function():\n")
	for i := range 200 {
		fmt.Fprintf(&src, "    step_%d = %d\n", i, i)
	}
	writeFile(t, filepath.Join(dir, "long.py"), src.String())
	cs := connect(t, newServer(t, dir, nil))
	text, _ := call(t, cs, toolFindSymbol, map[string]any{"name": "long_function", "body": true})
	mustContain(t, "a long body", text, "source of long_function, long.py:1-201:", "    step_148 = 148\n```\n",
		"(51 more lines, to line 201: outline long.py to see its parts)")
	if strings.Contains(text, "step_149 ") {
		t.Errorf("the body is not cut after %d lines:\n%s", maxBodyLines, text)
	}
}

func TestOutlineTool(t *testing.T) {
	dir := fixture(t)
	cs := connect(t, newServer(t, dir, nil))
	want := `Outline of pkg/headers.py: 4 definitions; each one's line, signature and first doc line, without bodies.

pkg/headers.py (python)
    4  class Headers
         doc: Case-insensitive HTTP headers.
    7    def __init__(self, items=None)
   10    def get(self, name, default=None)
           doc: Return the first value of a header, ignoring case.
   18  def parse_retry_after(value)
         doc: Parse a Retry-After header value into seconds.
`
	for _, path := range []string{"pkg/headers.py", "./pkg/../pkg/headers.py", filepath.Join(dir, "pkg", "headers.py")} {
		text, isErr := call(t, cs, toolOutline, map[string]any{"path": path})
		if diff := cmp.Diff(want, text); isErr || diff != "" {
			t.Errorf("outline %s (-want +got):\n%s", path, diff)
		}
	}

	text, _ := call(t, cs, toolOutline, map[string]any{"path": "."})
	mustContain(t, "outline of the repository", text, "Outline of the repository: 4 indexed files",
		"pkg/client.py (python)\n    4  class Client\n", "store/store.go (go)\n    4  type Store struct\n",
		"    9    func (s *Store) Get(key string) int\n", "pkg/__init__.py (python)\n  (no definitions)\n")
	if strings.Contains(text, "README") || strings.Contains(text, "return int(") || strings.Contains(text, "return value") {
		t.Errorf("outline shows unindexed files or bodies:\n%s", text)
	}
	text, _ = call(t, cs, toolOutline, map[string]any{"path": "store/"})
	mustContain(t, "outline of a directory", text, "Outline of store: 1 indexed file", "   12  func NewStore() *Store")
}

func TestOutlineRefusesPathsOutside(t *testing.T) {
	dir := fixture(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.py"), "def secret():\n    pass\n")
	if err := os.Symlink(outside, filepath.Join(dir, "escape")); err != nil {
		t.Skipf("symbolic links: %v", err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(dir, "pkg", "secret.py")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, newServer(t, dir, nil))
	for _, c := range []struct{ path, want string }{
		{"..", "is outside the repository"},
		{"../" + filepath.Base(outside) + "/secret.py", "is outside the repository"},
		{"pkg/../../x", "is outside the repository"},
		{outside, "is outside the repository"},
		{"/etc/passwd", "is outside the repository"},
		{"escape", "symbolic link"},
		{"escape/secret.py", "symbolic link"},
		{"pkg/secret.py", "symbolic link"},
		{"pkg/missing.py", "does not exist in the repository"},
		{"README.md", "is not indexed"},
		{"", "the path is empty"},
		{"pkg/\x00", "NUL byte"},
	} {
		text, isErr := call(t, cs, toolOutline, map[string]any{"path": c.path})
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("outline %q: error %v, %q; want an error saying %q", c.path, isErr, text, c.want)
		}
		if strings.Contains(text, "def secret") {
			t.Errorf("outline %q shows a file outside the repository:\n%s", c.path, text)
		}
	}
}

func TestReferencesTool(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), nil))
	text, isErr := call(t, cs, toolReferences, map[string]any{"name": "parse_retry_after"})
	if isErr {
		t.Fatalf("references: %s", text)
	}
	mustContain(t, "references", text, `Uses of "parse_retry_after": 1 place`, "\npkg/client.py\n   10  call   in Client.retry_delay  ×1\n")

	text, _ = call(t, cs, toolReferences, map[string]any{"name": "Headers"})
	mustContain(t, "references of a class", text, "pkg/client.py\n", "in Client.retry_delay")

	text, _ = call(t, cs, toolReferences, map[string]any{"name": "Headers.get"})
	mustContain(t, "references of a qualified name", text, `Uses of "get"`, `the uses of every "get", not only Headers.get's`)

	text, isErr = call(t, cs, toolReferences, map[string]any{"name": "make_client"})
	if isErr {
		t.Errorf("an unused name is not an error: %s", text)
	}
	mustContain(t, "references of an unused name", text, `No uses of "make_client"`, "function make_client  pkg/client.py:13")

	for _, c := range []struct {
		args any
		want string
	}{
		{map[string]any{"name": "nothing_here"}, `"nothing_here" is neither defined nor used`},
		{map[string]any{"name": "x."}, "give the name of a function"},
		{map[string]any{"name": "get", "limit": 501}, "limit 501"},
	} {
		text, isErr := call(t, cs, toolReferences, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("references %v: error %v, %q; want an error saying %q", c.args, isErr, text, c.want)
		}
	}
}

func TestUnknownToolIsAProtocolError(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), nil))
	res, err := callTool(t, cs, "no_such_tool", map[string]any{})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "no_such_tool"`) {
		t.Errorf("unknown tool: result %+v, error %v", res, err)
	}
}

func TestMalformedArgumentsAreToolErrors(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), nil))
	for _, c := range []struct {
		tool, args, want string
	}{
		{toolFindSymbol, `{"name": 5}`, `/properties/name: type: 5 has type "integer"`},
		{toolFindSymbol, `{"nmae": "Headers"}`, `additional properties ["nmae"]`},
		{toolOutline, `{}`, `missing properties: ["path"]`},
		{toolContext, `{"task": "x", "budget": "big"}`, "/properties/budget"},
		{toolReferences, `[1, 2]`, "arguments"},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr {
			t.Errorf("%s %s: not an error: %s", c.tool, c.args, text)
			continue
		}
		mustContain(t, c.tool+" "+c.args, text, "Invalid arguments for "+c.tool, c.want, "Call it with a JSON object like {")
	}
}

// TestOutputIsCapped outlines a file with thousands of definitions: the
// answer stops at the cap, on a line boundary, and says what it left out.
func TestOutputIsCapped(t *testing.T) {
	dir := fixture(t)
	var src strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&src, "def generated_function_%d(alpha, beta, gamma):\n    \"\"\"Compute value number %d.\"\"\"\n    return %d\n\n\n", i, i, i)
	}
	writeFile(t, filepath.Join(dir, "big.py"), src.String())
	for _, limit := range []int{0, 300} {
		cs := connect(t, newServer(t, dir, &Options{MaxOutputTokens: limit}))
		if limit == 0 {
			limit = DefaultMaxOutputTokens
		}
		text, isErr := call(t, cs, toolOutline, map[string]any{"path": "big.py"})
		if isErr {
			t.Fatal(text)
		}
		if n := tokens.Count(tokens.O200k, text); n > limit {
			t.Errorf("cap %d: the answer takes %d tokens", limit, n)
		}
		mustContain(t, "capped outline", text, "def generated_function_0(alpha, beta, gamma)",
			fmt.Sprintf("\n[winnow: answer cut to fit %d tokens: ", limit), "Outline a subdirectory or a single file to see the rest.]\n")
		last := text[:strings.Index(text, "\n[winnow:")]
		if !strings.HasSuffix(last, "\n") {
			t.Errorf("cap %d: not cut at a line boundary: %q", limit, last[max(0, len(last)-80):])
		}
		if strings.Contains(text, "generated_function_2999(") {
			t.Errorf("cap %d: the whole outline came through", limit)
		}
	}
}

// TestConcurrentClients runs several sessions calling every tool at once
// while each call refreshes the index.
func TestConcurrentClients(t *testing.T) {
	s := newServer(t, fixture(t), &Options{RefreshInterval: time.Nanosecond})
	calls := []struct {
		tool string
		args map[string]any
		want string
	}{
		{toolContext, map[string]any{"task": "parse_retry_after is wrong", "budget": 1000}, `name="parse_retry_after"`},
		{toolFindSymbol, map[string]any{"name": "NewStore"}, "store/store.go:12"},
		{toolOutline, map[string]any{"path": "pkg/client.py"}, "    7    def retry_delay(self, response)"},
		{toolReferences, map[string]any{"name": "parse_retry_after"}, "   10  call   in Client.retry_delay"},
	}
	const clients, rounds = 4, 5
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = connect(t, s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, clients*rounds*len(calls))
	for _, cs := range sessions {
		for r := range rounds {
			for _, c := range calls {
				wg.Go(func() {
					res, err := callTool(t, cs, c.tool, c.args)
					switch {
					case err != nil:
						errs <- fmt.Sprintf("round %d %s: %v", r, c.tool, err)
					case res.IsError || !strings.Contains(resultText(res), c.want):
						errs <- fmt.Sprintf("round %d %s: error %v, lacks %q: %s", r, c.tool, res.IsError, c.want, resultText(res))
					}
				})
			}
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestIndexIsRefreshed edits the tree under a running server: the next
// call sees the change, unless refreshing is off.
func TestIndexIsRefreshed(t *testing.T) {
	for _, c := range []struct {
		every time.Duration
		found bool
	}{
		{time.Nanosecond, true},
		{-1, false},
	} {
		dir := fixture(t)
		cs := connect(t, newServer(t, dir, &Options{RefreshInterval: c.every}))
		if text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "Headers"}); isErr {
			t.Fatal(text)
		}
		writeFile(t, filepath.Join(dir, "pkg", "fresh.py"), "def brand_new_helper():\n    \"\"\"Added while the server runs.\"\"\"\n")
		text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "brand_new_helper", "exact": true})
		if found := !isErr && strings.Contains(text, "pkg/fresh.py:1"); found != c.found {
			t.Errorf("refresh every %v: found %v, want %v: %s", c.every, found, c.found, text)
		}
	}
}

// TestRefresh starts a server on a repository that was never indexed,
// with refreshing by calls off: nothing is found until Refresh builds the
// index.
func TestRefresh(t *testing.T) {
	ix, err := index.Open(t.Context(), index.Options{Root: fixture(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	s, err := New(ix, &Options{RefreshInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	if text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "NewStore"}); !isErr {
		t.Errorf("found in an index never built: %s", text)
	}
	st, err := s.Refresh(t.Context())
	if err != nil || st.Files != 4 {
		t.Fatalf("Refresh: %+v, %v", st, err)
	}
	if text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "NewStore"}); isErr || !strings.Contains(text, "store/store.go:12") {
		t.Errorf("after Refresh: error %v, %s", isErr, text)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	if _, err := New(nil, nil); err == nil {
		t.Error("New without an index succeeded")
	}
	ix := openIndex(t, fixture(t))
	if _, err := New(ix, &Options{MaxOutputTokens: 10}); err == nil || !strings.Contains(err.Error(), "at least 256") {
		t.Errorf("a cap of 10 tokens: %v", err)
	}
	if _, err := New(ix, &Options{MaxOutputTokens: -5}); err == nil {
		t.Error("a negative cap was accepted")
	}
}
