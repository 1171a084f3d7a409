package lang

import (
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestJVMLanguagesSurviveBrokenInput parses every prefix (in small
// steps), byte-mangled copies and random bytes in the Java, C#, Kotlin
// and Scala grammars. Broken input must extract without error, keep
// spans inside the file, and keep every qualified name made of its
// parent's and its own.
func TestJVMLanguagesSurviveBrokenInput(t *testing.T) {
	p := NewParser()
	defer p.Close()
	rng := rand.New(rand.NewPCG(7, 11))
	for _, name := range []string{"java", "csharp", "kotlin", "scala"} {
		t.Run(name, func(t *testing.T) { jvmBrokenInput(t, p, rng, name) })
	}
}

func jvmBrokenInput(t *testing.T, p *Parser, rng *rand.Rand, name string) {
	const noise = "{}()[]<>;:,.=@'\"`$#/\\*\n\t x_A9"
	ar, err := txtar.ParseFile("testdata/golden/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	l := ByName(name)
	check := func(file string, src []byte) { jvmParseChecked(t, p, l, file, src) }
	for _, f := range ar.Files {
		if strings.HasSuffix(f.Name, ".want") {
			continue
		}
		for end := 0; end <= len(f.Data); end += 7 {
			check(f.Name, f.Data[:end])
		}
		for range 40 {
			src := []byte(string(f.Data))
			for range 1 + rng.IntN(10) {
				src[rng.IntN(len(src))] = noise[rng.IntN(len(noise))]
			}
			check(f.Name, src)
		}
	}
	for range 40 {
		src := make([]byte, rng.IntN(400))
		for i := range src {
			src[i] = noise[rng.IntN(len(noise))]
		}
		check("garbage", src)
	}
}

// TestKotlinAnnotationAtEndOfFile parses the input that hangs
// tree-sitter-kotlin v1.0.1's external scanner: a file ending in "@Name"
// right after a statement. Its '@' case skips to the next whitespace
// without checking for end of input, and nothing can interrupt it;
// Parser ends Kotlin sources with a newline to avoid it.
func TestKotlinAnnotationAtEndOfFile(t *testing.T) {
	p := NewParser()
	defer p.Close()
	jvmParseChecked(t, p, kotlinLang, "Hang.kt", []byte("val x = 1\n@A"))
}

func jvmParseChecked(t *testing.T, p *Parser, l *Language, name string, src []byte) {
	t.Helper()
	got, err := p.Parse(t.Context(), l, name, src)
	if err != nil {
		t.Fatalf("%s %s (%d bytes): %v", l.Name, name, len(src), err)
	}
	checkSpans(t, got, src)
	for _, s := range got.Symbols {
		if s.Name == "" || !strings.HasSuffix(s.Qual, s.Name) || s.Parent != "" && !strings.HasPrefix(s.Qual, s.Parent+".") {
			t.Fatalf("%s %s (%d bytes): symbol %q qualified %q with parent %q", l.Name, name, len(src), s.Name, s.Qual, s.Parent)
		}
	}
}
