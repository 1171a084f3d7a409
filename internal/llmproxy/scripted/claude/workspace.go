package claude

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Workspace size: files of 20–40 KB, the size of the source files an agent reads.
const (
	DefaultFiles  = 8
	minFileBytes  = 20 << 10
	fileByteRange = 20 << 10
)

// WriteWorkspace writes n generated text files into dir (DefaultFiles when n <= 0) and
// returns their absolute paths, in the order a Script reads them. The content is
// deterministic: numbered lines of Go-like pseudo-code, the same for the same n on every
// run, so two runs of one script read the same bytes.
func WriteWorkspace(dir string, n int) ([]string, error) {
	if n <= 0 {
		n = DefaultFiles
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	if err := os.MkdirAll(filepath.Join(abs, "src"), 0o755); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	paths := make([]string, n)
	for i := range n {
		paths[i] = filepath.Join(abs, "src", fmt.Sprintf("module_%02d.go.txt", i))
		size := minFileBytes + (i*7919)%fileByteRange
		if err := os.WriteFile(paths[i], []byte(pseudoCode(i, size)), 0o644); err != nil {
			return nil, fmt.Errorf("workspace: %w", err)
		}
	}
	return paths, nil
}

// pseudoCode returns about size bytes of numbered pseudo-code lines for file i.
func pseudoCode(i, size int) string {
	rng := rand.New(rand.NewPCG(uint64(i)+1, 0x5eed))
	nouns := []string{"cache", "request", "index", "buffer", "session", "token", "record", "config", "handler", "queue"}
	verbs := []string{"load", "store", "parse", "merge", "flush", "lookup", "encode", "decode", "scan", "retry"}
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var b strings.Builder
	line := 0
	emit := func(format string, args ...any) {
		line++
		fmt.Fprintf(&b, "%5d  ", line)
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	emit("// module_%02d: generated for the scripted Claude Code benchmark", i)
	for fn := 0; b.Len() < size; fn++ {
		noun, verb := pick(nouns), pick(verbs)
		emit("")
		emit("// %s%s%d %ss the %s and reports what changed.", verb, strings.ToUpper(noun[:1])+noun[1:], fn, verb, noun)
		emit("func %s%s%d(ctx Context, %s *%s) (int, error) {", verb, strings.ToUpper(noun[:1])+noun[1:], fn, noun, strings.ToUpper(noun[:1])+noun[1:])
		for range 3 + rng.IntN(6) {
			switch rng.IntN(4) {
			case 0:
				emit("\tn, err := %s.%s(ctx, %d)", noun, pick(verbs), rng.IntN(1000))
				emit("\tif err != nil {")
				emit("\t\treturn 0, fmt.Errorf(\"%s %s: %%w\", err)", verb, noun)
				emit("\t}")
			case 1:
				emit("\tfor i := range %s.%ss {", noun, pick(nouns))
				emit("\t\t%s.total += i * %d", noun, rng.IntN(97)+1)
				emit("\t}")
			case 2:
				emit("\t%s := %s(%s, %q)", pick(nouns), pick(verbs), noun, pick(nouns))
			default:
				emit("\tlog.Debug(%q, \"%s\", %s.id)", verb+" "+noun, pick(nouns), noun)
			}
		}
		emit("\treturn %s.total, nil", noun)
		emit("}")
	}
	return b.String()
}
