package codex

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// The workspace is one Go-like source file per reading step, pkg/partNN.go, 20–32 KB
// each, generated from the step number so every run reads the same bytes.
const (
	fileMin  = 20 << 10
	fileSpan = 12 << 10
)

// FilePath returns the workspace-relative path of the file step reads.
func FilePath(step int) string { return fmt.Sprintf("pkg/part%02d.go", step) }

// Marker returns the line that opens the file of step, which the fake looks for in the
// tool output to confirm the client really ran the command.
func Marker(step int) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "winnow scripted codex %d", step)
	return fmt.Sprintf("// marker %02d-%08x", step, h.Sum32())
}

// WriteWorkspace writes the files of steps 1..steps under dir.
func WriteWorkspace(dir string, steps int) error {
	if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	for s := 1; s <= steps; s++ {
		if err := os.WriteFile(filepath.Join(dir, FilePath(s)), []byte(FileText(s)), 0o644); err != nil {
			return fmt.Errorf("workspace: %w", err)
		}
	}
	return nil
}

var (
	nouns = []string{"cache", "index", "segment", "request", "budget", "token", "writer", "reader", "entry",
		"shard", "window", "record", "batch", "buffer", "cursor", "ledger", "span", "route", "frame", "slot"}
	verbs = []string{"load", "store", "merge", "split", "flush", "scan", "encode", "decode", "apply", "check",
		"build", "drop", "grow", "seek", "trim", "sort", "count", "match", "send", "close"}
)

// FileText returns the content of the file step reads: a package of small functions
// with comments, deterministic in step.
func FileText(step int) string {
	rng := rand.New(rand.NewPCG(uint64(step), 0x5eed))
	size := fileMin + (step*7919)%fileSpan
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n// Package part%02d is generated test input for winnow's scripted Codex session.\npackage part%02d\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n", Marker(step), step, step)
	for n := 0; b.Len() < size; n++ {
		noun, verb := nouns[rng.IntN(len(nouns))], verbs[rng.IntN(len(verbs))]
		name := fmt.Sprintf("%s%s%d", strings.ToUpper(verb[:1])+verb[1:], strings.ToUpper(noun[:1])+noun[1:], n)
		limit := 16 + rng.IntN(4096)
		fmt.Fprintf(&b, "\n// %s %ss the %s at position i, up to %d bytes, and reports\n// whether the %s was %sed in full.\n", name, verb, noun, limit, noun, strings.TrimSuffix(verb, "e"))
		fmt.Fprintf(&b, "func %s(buf []byte, i int) (int, error) {\n", name)
		fmt.Fprintf(&b, "\tif i < 0 || i >= len(buf) {\n\t\treturn 0, fmt.Errorf(\"%s %s: position %%d out of range [0,%%d)\", i, len(buf))\n\t}\n", verb, noun)
		fmt.Fprintf(&b, "\tn := min(len(buf)-i, %d)\n", limit)
		for k := rng.IntN(4); k >= 0; k-- {
			fmt.Fprintf(&b, "\tfor j := i; j < i+n; j++ {\n\t\tif buf[j] == 0x%02x {\n\t\t\treturn j - i, errors.New(\"%s: unexpected byte 0x%02x\")\n\t\t}\n\t}\n", rng.IntN(256), noun, rng.IntN(256))
		}
		b.WriteString("\treturn n, nil\n}\n")
	}
	return b.String()
}

// hiddenReasoning is the reasoning text the model "thought" at a step: what the API
// keeps behind encrypted_content and counts as input when the item is sent back.
func hiddenReasoning(step int, action string) string {
	rng := rand.New(rand.NewPCG(uint64(step), 0x7415))
	var b strings.Builder
	fmt.Fprintf(&b, "The user wants the files under pkg/ read one by one. Step %d: %s. ", step, action)
	for i := 0; i < 24+rng.IntN(24); i++ {
		noun, verb := nouns[rng.IntN(len(nouns))], verbs[rng.IntN(len(verbs))]
		fmt.Fprintf(&b, "The %s functions %s each %s before the bounds check; I should note whether %s%d matches the earlier parts. ",
			verb, verb, noun, noun, rng.IntN(100))
	}
	return b.String()
}

// summary is the reasoning summary shown to the user at a step.
func summary(step int, action string) string {
	return fmt.Sprintf("**Step %d**\n\nNext I %s.", step, action)
}
