package pipeline

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

// githubArray returns a GitHub-like JSON array of issues (as the GitHub MCP
// server returns list_issues) of about size bytes.
func githubArray(b *testing.B, size int) string {
	b.Helper()
	var list []map[string]any
	for n := 1; ; n *= 2 {
		list = issues(n)
		if text := mustJSON(b, list, true); len(text) >= size {
			for len(list) > 1 && len(mustJSON(b, list[:len(list)-1], true)) >= size {
				list = list[:len(list)-1]
			}
			return mustJSON(b, list, true)
		}
	}
}

// BenchmarkAfter measures the whole After: a fresh result (a new session
// each time, so nothing is a duplicate: dedup misses, encode, and at 100
// KiB trim) and a repeat (dedup hit). json.Valid on the same input runs
// alongside as the peer to compare with.
func BenchmarkAfter(b *testing.B) {
	for _, size := range []int{4 << 10, 100 << 10} {
		text := githubArray(b, size)
		name := fmt.Sprintf("%dKiB", size>>10)
		args := json.RawMessage(`{"owner":"acme","repo":"widget","labels":"bug,upload"}`)
		b.Run(name+"/fresh", func(b *testing.B) {
			p := Default(Options{})
			b.SetBytes(int64(len(text)))
			i := 0
			for b.Loop() {
				i++
				c := &Call{Session: strconv.Itoa(i), Tool: "github__list_issues", Args: args}
				p.Before(b.Context(), c)
				p.After(b.Context(), c, textResult(text))
			}
		})
		b.Run(name+"/repeat", func(b *testing.B) {
			p := Default(Options{})
			c := &Call{Session: "s", Tool: "github__list_issues", Args: args}
			p.After(b.Context(), c, textResult(text))
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				p.Before(b.Context(), c)
				p.After(b.Context(), c, textResult(text))
			}
		})
		b.Run(name+"/peer-json.Valid", func(b *testing.B) {
			data := []byte(text)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				json.Valid(data)
			}
		})
	}
}
