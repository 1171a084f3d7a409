package lang

import (
	"strings"
	"testing"
)

// TestTSXQueryExtendsTypeScript keeps the TSX query in step with the
// TypeScript one: it is the same text followed by the JSX patterns.
func TestTSXQueryExtendsTypeScript(t *testing.T) {
	ts, err := queryFiles.ReadFile("queries/typescript.scm")
	if err != nil {
		t.Fatal(err)
	}
	tsx, err := queryFiles.ReadFile("queries/tsx.scm")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(tsx), string(ts)) {
		t.Error("queries/tsx.scm does not start with queries/typescript.scm; copy the TypeScript query and keep the JSX section after it")
	}
}
