package lang

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestTruncatedWebSources parses prefixes (64 per file) and some
// byte-mangled copies of the JavaScript, TypeScript, TSX and PHP golden
// sources: broken input must still extract without panicking, and keep
// spans inside the file.
func TestTruncatedWebSources(t *testing.T) {
	p := NewParser()
	defer p.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	const noise = "{}()<>;:'\"`$#@/\\*\n x"
	for _, name := range []string{"javascript", "typescript", "tsx", "php"} {
		ar, err := txtar.ParseFile("testdata/golden/" + name + ".txtar")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".want") {
				continue
			}
			l := ForPath(f.Name)
			step := max(1, len(f.Data)/64)
			for end := 0; end <= len(f.Data); end += step {
				parseWebChecked(t, p, l, f.Name, f.Data[:end])
			}
			for range 20 {
				src := bytes.Clone(f.Data)
				for range 1 + rng.IntN(8) {
					src[rng.IntN(len(src))] = noise[rng.IntN(len(noise))]
				}
				parseWebChecked(t, p, l, f.Name, src)
			}
		}
	}
}

func parseWebChecked(t *testing.T, p *Parser, l *Language, name string, src []byte) {
	t.Helper()
	got, err := p.Parse(t.Context(), l, name, src)
	if err != nil {
		t.Fatalf("%s (%d bytes): %v", name, len(src), err)
	}
	checkSpans(t, got, src)
}

func TestECMAExports(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		def          string
		module, list bool
	}{
		{"script", "function a() {}\nexports.a = a;\n", "a", false, false},
		{"dynamic import", "const m = import('m');\nimport.meta.url;\n", "m", false, false},
		{"import", "import x from 'x';\nfunction a() {}\n", "a", true, false},
		{"export list", "function a() {}\nexport { b, a as c };\n", "a", true, true},
		{"export alias is not local", "function c() {}\nexport { a as c };\n", "c", true, false},
		{"re-export", "function a() {}\nexport { a } from './a';\n", "a", true, false},
		{"export default", "function a() {}\nexport default a;\n", "a", true, true},
		{"export =", "class A {}\nexport = A;\n", "A", true, true},
		{"export type list", "interface T {}\nexport type { T };\n", "T", true, true},
		{"exported declaration", "export function b() {}\nfunction a() {}\n", "a", true, false},
		{"namespace export", "namespace N {\n  export function a() {}\n}\n", "N", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			module, listed := ecmaExports([]byte(tt.src), tt.def)
			if module != tt.module || listed != tt.list {
				t.Errorf("ecmaExports(%q, %q) = %v, %v; want %v, %v", tt.src, tt.def, module, listed, tt.module, tt.list)
			}
		})
	}
}
