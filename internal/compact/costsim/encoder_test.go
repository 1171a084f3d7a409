package costsim

import (
	"os"
	"testing"

	"github.com/winnowhq/winnow/internal/tokens"
)

// TestEncoderMatchesTokens holds the Encoder to internal/tokens' exact
// o200k counts, on small cases and on a real trajectory file.
func TestEncoderMatchesTokens(t *testing.T) {
	enc, err := NewEncoder()
	if err != nil {
		t.Fatal(err)
	}
	counter, err := tokens.Exact(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../traj/testdata/trajectories/sweagent_gpt4_pydicom__pydicom-1458.traj.json")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{
		"empty":   "",
		"prose":   "hello world, the quick brown fox",
		"code":    "func main() {\n\tfmt.Println(\"hi\")\n}\n",
		"special": "<|endoftext|> counts as text",
		"i18n":    "日本語のテキスト and émojis 🎉",
		"file":    string(data),
	}
	for name, text := range texts {
		ids, err := enc.Encode(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := counter.Count(text); len(ids) != want {
			t.Errorf("%s: %d ids, internal/tokens counts %d", name, len(ids), want)
		}
	}
	a, _ := enc.Encode("same text")
	b, _ := enc.Encode("same text")
	if len(a) == 0 || len(a) != len(b) || a[0] != b[0] {
		t.Errorf("the same text encoded to %v and %v", a, b)
	}
}
