package history

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestPeek: peek, which checks a file larger than its buffer a chunk at a
// time, says what reading it whole says, for files below and above the
// buffer's size, intact, with any one byte damaged, or truncated.
func TestPeek(t *testing.T) {
	for _, n := range []int{3, 4000} { // a few hundred bytes; some 200 KB
		d := &data{head: "0123456789abcdef0123456789abcdef01234567", paths: []string{"a.py", "pkg/b.go"}}
		for i := range n {
			d.commits = append(d.commits, record{hash: fmt.Appendf(nil, "%040d", i), time: int64(1e9 + i),
				terms: map[string]int{fmt.Sprint("term", i%97): 1, "fix": 2}, files: []uint32{uint32(i % 2)}, nterm: 3})
		}
		b := d.encode()
		file := filepath.Join(t.TempDir(), FileName)
		check := func(what string, b []byte) {
			t.Helper()
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
			h, c, ok := peek(file)
			wh, wc, wok := peekBytes(file)
			if h != wh || c != wc || ok != wok {
				t.Fatalf("%d commits, %s: peek = %q, %d, %v; read whole: %q, %d, %v", n, what, h, c, ok, wh, wc, wok)
			}
		}
		check("intact", b)
		if h, c, ok := peek(file); !ok || h != d.head || c != n {
			t.Fatalf("%d commits: peek = %q, %d, %v", n, h, c, ok)
		}
		for _, at := range []int{0, len(magic), len(magic) + 3, len(b) / 3, peekChunk - 1, peekChunk, peekChunk + 1, len(b) - 5, len(b) - 1} {
			if at >= len(b) {
				continue
			}
			bad := append([]byte(nil), b...)
			bad[at] ^= 0x20
			check(fmt.Sprintf("byte %d damaged", at), bad)
		}
		check("truncated", b[:len(b)*2/3])
	}
}
