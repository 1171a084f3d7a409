package anthropic

import (
	"encoding/json"
	"testing"
)

// The benchmarks run on the largest real trajectory fixture. Compare
// BenchmarkDecode with BenchmarkUnmarshalPeer, a plain encoding/json
// decode of the same body into generic values, the least any proxy that
// inspects a request must do.

func largestFixture(b *testing.B) []byte {
	var body []byte
	for _, f := range fixtures(b) {
		if len(f) > len(body) {
			body = f
		}
	}
	return body
}

func BenchmarkDecode(b *testing.B) {
	body := largestFixture(b)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := Decode(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalPeer(b *testing.B) {
	body := largestFixture(b)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeEdited re-encodes the body after replacing every text of
// the first half of its messages: the splice path.
func BenchmarkEncodeEdited(b *testing.B) {
	body := largestFixture(b)
	c, err := Decode(body)
	if err != nil {
		b.Fatal(err)
	}
	for i := range c.Messages[:len(c.Messages)/2] {
		for k := range c.Messages[i].Parts {
			c.Messages[i].Parts[k].Text = "[elided]"
		}
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := Encode(c); err != nil {
			b.Fatal(err)
		}
	}
}
