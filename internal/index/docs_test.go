package index

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// docTerms returns "term@field" strings of a document, sorted.
func docTerms(ps []Posting) []string {
	var out []string
	for _, p := range ps {
		s := p.Term + "@" + []string{"name", "path", "sig", "doc", "body"}[p.Field]
		if p.Count > 1 {
			s += "×" + string(rune('0'+p.Count))
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestDocuments(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"net/client.py": `"""HTTP client."""
import socket

class Client:
    """Talks to servers."""

    def send_request(self, payload):
        """Send a request."""
        return socket.write(payload)


RETRIES = 3
`})
	ix := openIndex(t, Options{Root: root})
	update(t, ix)
	var got *FileDocs
	err := ix.ForEachFileDocs(t.Context(), func(fd *FileDocs) error {
		got = fd
		return nil
	})
	if err != nil || got == nil {
		t.Fatalf("ForEachFileDocs: %v %v", got, err)
	}
	syms, _ := ix.FileSymbols(t.Context(), "net/client.py")
	if len(got.Docs) != len(syms) || len(got.Symbols) != len(syms) {
		t.Fatalf("%d docs, %d ids for %d symbols", len(got.Docs), len(got.Symbols), len(syms))
	}
	want := map[string][]string{
		// The file: its path, and the code outside every definition.
		"":       {"client@body", "client@path", "http@body", "net@path", "socket@body"},
		"Client": {"client@body", "client@name", "client@path", "client@sig", "net@path", "server@body", "server@doc", "talk@body", "talk@doc"},
		"Client.send_request": {"client@path×2", "net@path", "payload@body×2", "payload@sig", "request@body×2",
			"request@doc", "request@name", "request@sig", "send@body×2", "send@doc", "send@name", "send@sig",
			"send_request@name", "socket@body", "writ@body"},
		"RETRIES": {"client@path", "net@path", "retry@body", "retry@name", "retry@sig"},
	}
	if diff := cmp.Diff(want[""], docTerms(got.File)); diff != "" {
		t.Errorf("file document (-want +got):\n%s", diff)
	}
	for i, s := range syms {
		if diff := cmp.Diff(want[s.Qual], docTerms(got.Docs[i])); diff != "" {
			t.Errorf("document of %s (-want +got):\n%s", s.Qual, diff)
		}
	}
}

func FuzzDecodeDocs(f *testing.F) {
	f.Add(encodeDocs([]Posting{{"a", FieldBody, 2}}, [][]Posting{{{"bb", FieldName, 1}, {"a", FieldDoc, 3}}, nil}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		file, docs, err := decodeDocs(data)
		if err != nil {
			return
		}
		// What decodes, encodes to something that decodes the same.
		file2, docs2, err := decodeDocs(encodeDocs(file, docs))
		if err != nil || !cmp.Equal(file, file2, cmp.Comparer(func(a, b []Posting) bool { return len(a) == len(b) && (len(a) == 0 || slices.Equal(a, b)) })) || len(docs) != len(docs2) {
			t.Fatalf("round trip: %v %v / %v %v (%v)", file, docs, file2, docs2, err)
		}
	})
}
