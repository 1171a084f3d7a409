package compact

import (
	"testing"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// largestRequest returns the largest request body of the recorded
// trajectories, and its dialect.
func largestRequest(b *testing.B) (string, []byte) {
	b.Helper()
	ts, err := traj.Load(trajectoryDir)
	if err != nil {
		b.Fatal(err)
	}
	var dialect string
	var body []byte
	for _, tr := range ts {
		for r, err := range traj.Requests(tr, nil) {
			if err != nil {
				b.Fatal(err)
			}
			if len(r.Body) > len(body) {
				dialect, body = tr.Dialect, r.Body
			}
		}
	}
	return dialect, body
}

// BenchmarkRewrite compacts the largest recorded request (the last of a
// 38-turn SWE-smith run, ~230 KB). BenchmarkCodec is its peer: decoding
// the body and encoding it unchanged, the floor of any proxy that reads
// requests.
func BenchmarkRewrite(b *testing.B) {
	dialect, body := largestRequest(b)
	c := New(Options{})
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, sum, err := c.Rewrite(dialect, body); err != nil || !sum.Changed {
			b.Fatal(err, sum.Violations)
		}
	}
}

func BenchmarkCodec(b *testing.B) {
	dialect, body := largestRequest(b)
	decode, encode, err := codec(dialect)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		conv, err := decode(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := encode(conv, nil); err != nil {
			b.Fatal(err)
		}
	}
}
