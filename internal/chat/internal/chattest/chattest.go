// Package chattest provides the checks every chat codec must pass, for
// the codecs' tests: fixture loading, the decode→encode round trip with
// edits, and the DecodeExtending contract. It is used only by tests.
package chattest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
)

// A Codec is the request-level API of one dialect's codec package.
type Codec struct {
	Decode          func(body []byte) (*chat.Conversation, error)
	DecodeExtending func(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error)
	// DecodeShared and DecodeExtendingShared, if set, are checked to do
	// what Decode and DecodeExtending do, keeping the body itself.
	DecodeShared          func(body []byte) (*chat.Conversation, error)
	DecodeExtendingShared func(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error)
	Encode                func(c *chat.Conversation) ([]byte, error)
	FirstMessageEnd       func(body []byte) int
	// Array names the member holding the messages; "messages" if empty.
	Array string
}

func (c Codec) array() string {
	if c.Array == "" {
		return "messages"
	}
	return c.Array
}

// Fixtures returns the request bodies in ../testdata whose names match
// glob, keyed by base name. It fails t if there are none.
func Fixtures(t testing.TB, glob string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", glob))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	out := make(map[string][]byte, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// MustDecode decodes body with decode, failing t if it does not decode.
func MustDecode(t testing.TB, decode func([]byte) (*chat.Conversation, error), body string) *chat.Conversation {
	t.Helper()
	c, err := decode([]byte(body))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return c
}

// EncodeFixtures checks that every body of fixtures decodes to an
// unchanged conversation that, and whose clone, encodes to the body.
func EncodeFixtures(t *testing.T, codec Codec, fixtures map[string][]byte) {
	t.Helper()
	for name, body := range fixtures {
		t.Run(name, func(t *testing.T) {
			c, err := codec.Decode(body)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !c.Unchanged() {
				t.Error("freshly decoded conversation reports a change")
			}
			for _, conv := range []*chat.Conversation{c, c.Clone()} {
				got, err := codec.Encode(conv)
				if err != nil {
					t.Fatalf("Encode: %v", err)
				}
				if !bytes.Equal(got, body) {
					t.Fatalf("Encode differs from the input:\n got %.200q\nwant %.200q", got, body)
				}
			}
		})
	}
}
