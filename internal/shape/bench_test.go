package shape

import (
	"fmt"
	"testing"

	"github.com/winnowhq/winnow/internal/shape/shapetest"
	"github.com/winnowhq/winnow/internal/tokens"
)

// sized returns a generated issues array of about size bytes: the largest
// prefix of whole issues that fits.
func sized(b *testing.B, size int) string {
	b.Helper()
	lo, hi := 1, 1
	for {
		d, err := shapetest.Generate(shapetest.Issues, hi, 1)
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Text) > size {
			break
		}
		lo, hi = hi, hi*2
	}
	for lo+1 < hi {
		mid := (lo + hi) / 2
		d, _ := shapetest.Generate(shapetest.Issues, mid, 1)
		if len(d.Text) > size {
			hi = mid
		} else {
			lo = mid
		}
	}
	d, _ := shapetest.Generate(shapetest.Issues, lo, 1)
	return d.Text
}

// BenchmarkEncode measures Encode on GitHub-like issue lists of 4 KiB and
// 100 KiB with three counters: bytes (the cost of the engine alone), the
// calibrated o200k estimator, and exact o200k BPE.
func BenchmarkEncode(b *testing.B) {
	exact, err := tokens.Exact(tokens.O200k)
	if err != nil {
		b.Fatal(err)
	}
	counters := []struct {
		name  string
		count func(string) int
	}{
		{"bytes", nil},
		{"estimate", tokens.NewEstimator(tokens.O200k).Count},
		{"exact", exact.Count},
	}
	for _, size := range []int{4 << 10, 100 << 10} {
		text := sized(b, size)
		for _, c := range counters {
			b.Run(fmt.Sprintf("%dKiB/%s", size>>10, c.name), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					if res := Encode(text, c.count); res.Encoder != EncoderTable {
						b.Fatalf("encoder %q", res.Encoder)
					}
				}
			})
		}
	}
}

// BenchmarkDecodeTable measures decoding a 100 KiB issue list's table.
func BenchmarkDecodeTable(b *testing.B) {
	res := Encode(sized(b, 100<<10), nil)
	b.SetBytes(int64(len(res.Text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(res.Encoder, res.Text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStages measures the steps of Encode one by one on a 100 KiB
// issue list, to show where its time goes: the binary check, the parse,
// the two candidate encodings (and the table's column analysis alone),
// and the gate's decode and comparison.
func BenchmarkStages(b *testing.B) {
	text := sized(b, 100<<10)
	d := inspect(text)
	table, _ := encodeTable(&d.json, 0)
	back, err := decodeTable(table)
	if err != nil {
		b.Fatal(err)
	}
	var scratch tape
	stages := []struct {
		name string
		run  func()
	}{
		{"isBinary", func() { isBinary(text) }},
		{"parse", func() { _, _ = scratch.parse(text) }},
		{"compact", func() { encodeCompact(&d.json, 0) }},
		{"columns", func() { tableColumns(&d.json, 0) }},
		{"table", func() { encodeTable(&d.json, 0) }},
		{"decodeTable", func() { _ = scratch.decodeTable(table) }},
		{"equal", func() { equal(&back, &d.json) }},
	}
	for _, s := range stages {
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				s.run()
			}
		})
	}
}
