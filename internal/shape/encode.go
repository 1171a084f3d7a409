package shape

import (
	"fmt"
	"math"
	"unicode/utf8"
)

// A Result is what Encode made of a text.
type Result struct {
	// Shape is the text's shape (see Classify).
	Shape Shape
	// Encoder names the encoding of Text ("json_compact", "kv", "table",
	// "wrapper_table", "md_csv"), or is empty when Text is the input.
	Encoder string
	// Text is the encoded text, or the input unchanged when Encoder is
	// empty.
	Text string
	// Before and After are the token counts of the input and of Text.
	Before, After int
	// Rejected names an encoder whose output was the shortest but did not
	// decode back to the input, so the input was kept. It is empty
	// unless the round-trip gate caught a bug; it is meant for telemetry.
	Rejected string
}

// Saved returns the number of tokens the encoding saved.
func (r Result) Saved() int { return r.Before - r.After }

// Encode returns the shortest lossless encoding of text, counting tokens
// with count (nil counts bytes). It tries every encoder that fits the
// text's shape, takes the one with the fewest tokens and returns it only
// if it has strictly fewer tokens than text and its decoder reproduces
// text exactly: the same JSON values with the same key order and number
// literals, or the same table cells. Otherwise Result.Text is text and
// Result.Encoder is empty. Encode never fails and never panics; text that
// is not UTF-8, longer than MaxBytes, or not JSON or a markdown table
// passes through. count is called on text and on each candidate, so its
// cost usually dominates: see BenchmarkEncode for exact and estimated
// counts.
func Encode(text string, count func(string) int) Result {
	return EncodeBelow(text, count, nil)
}

// EncodeBelow is Encode with a counter that may stop early: below(s,
// limit) returns count(s) and true if count(s) < limit, and false
// otherwise, when it may have counted only part of s. EncodeBelow counts
// each candidate with it, the limit being the count the candidate must
// stay under to win; the result is Encode's. A nil below counts with
// count.
func EncodeBelow(text string, count func(string) int, below func(s string, limit int) (int, bool)) Result {
	return encodeBelow(text, count, below, nil)
}

// EncodeBelowSpans is EncodeBelow that also appends to spans, when text is
// a JSON array (the parse Encode makes of it), the start and end offsets
// in text of each of its elements, in pairs, and returns spans; nothing is
// appended when text is not a JSON array. These are the items of the list
// trimtree finds in a top-level array, so a caller can hand them to
// trimtree.TrimItems instead of having text parsed again.
func EncodeBelowSpans(text string, count func(string) int, below func(s string, limit int) (int, bool), spans []int) (Result, []int) {
	r := encodeBelow(text, count, below, &spans)
	return r, spans
}

func encodeBelow(text string, count func(string) int, below func(s string, limit int) (int, bool), spans *[]int) Result {
	if count == nil {
		count = func(s string) int { return len(s) }
	}
	if below == nil {
		below = func(s string, limit int) (int, bool) {
			n := count(s)
			return n, n < limit
		}
	}
	d := newDoc()
	defer d.free()
	d.inspect(text, spans)
	before := count(text)
	res := Result{Shape: d.shape, Text: text, Before: before, After: before}
	if d.inexact {
		return res
	}
	// The candidate with the fewest tokens wins, the first one listed on a
	// tie, if it has fewer than text. They are tried last listed first
	// (compact JSON, listed first, is rarely the shortest), and each is
	// counted only as far as it could still win.
	names := encodersFor(d.shape)
	best, bestText, bestN, bestK := "", "", before, -1
	for k := len(names) - 1; k >= 0; k-- {
		out, ok := encodeWith(names[k], d)
		if !ok || out == text {
			continue
		}
		limit := bestN // to win, out needs fewer tokens, or as many and to be listed first
		if bestK >= 0 {
			limit++
		}
		if n, ok := below(out, limit); ok {
			best, bestText, bestN, bestK = names[k], out, n, k
		}
	}
	if best == "" {
		return res
	}
	if !roundTrips(best, bestText, d) {
		res.Rejected = best
		return res
	}
	res.Encoder, res.Text, res.After = best, bestText, bestN
	return res
}

// encodersFor lists the encoders that apply to a shape. JSON compaction
// applies to every JSON container; the others to their shapes.
func encodersFor(s Shape) []string {
	switch s {
	case JSONArrayObjects:
		return []string{EncoderCompact, EncoderTable}
	case JSONWrapperArray:
		return []string{EncoderCompact, EncoderWrapper, EncoderKV}
	case JSONObjectFlat, JSONObjectNested:
		return []string{EncoderCompact, EncoderKV}
	case JSONScalarArray, JSONArrayMixed:
		return []string{EncoderCompact}
	case MarkdownTable:
		return []string{EncoderMarkdownCSV}
	}
	return nil
}

// encodeWith runs the named encoder on a parsed text.
func encodeWith(name string, d *doc) (string, bool) {
	switch name {
	case EncoderCompact:
		return encodeCompact(&d.json, 0)
	case EncoderKV:
		return encodeKV(&d.json, 0)
	case EncoderTable:
		return encodeTable(&d.json, 0)
	case EncoderWrapper:
		return encodeWrapper(&d.json, 0)
	case EncoderMarkdownCSV:
		return encodeMDCSV(d.table)
	}
	return "", false
}

// roundTrips is the gate: it decodes out with the named encoder's decoder
// and compares the result with what the input parsed to.
func roundTrips(name, out string, d *doc) bool {
	if name == EncoderMarkdownCSV {
		t, err := decodeMDCSV(out)
		return err == nil && equalTables(t, d.table)
	}
	t := newTape()
	defer t.free()
	err := t.decodeWith(name, out)
	return err == nil && equal(t, &d.json)
}

// decodeWith makes t the tape of text decoded by the named JSON encoder's
// decoder.
func (t *tape) decodeWith(name, text string) error {
	if len(text) > math.MaxInt32 {
		return fmt.Errorf("text of %d bytes: too long", len(text))
	}
	switch name {
	case EncoderCompact:
		return t.decodeCompact(text)
	case EncoderKV:
		return t.decodeKV(text)
	case EncoderTable:
		return t.decodeTable(text)
	case EncoderWrapper:
		return t.decodeWrapper(text)
	}
	return fmt.Errorf("unknown encoder %q", name)
}

// Decode inverts an encoder. For the JSON encoders it returns compact JSON
// equal to the original: the same values, the same key order in every
// object, the same number literals. For md_csv it returns the table's
// cells as a markdown table (left-aligned, pipes in cells escaped). An
// empty encoder returns text as it is. Text that the encoder cannot have
// written is an error naming the line and what was wrong.
func Decode(encoder, text string) (string, error) {
	if encoder == "" {
		return text, nil
	}
	if !utf8.ValidString(text) {
		return "", fmt.Errorf("decode %s: text is not valid UTF-8", encoder)
	}
	if encoder == EncoderMarkdownCSV {
		t, err := decodeMDCSV(text)
		if err != nil {
			return "", fmt.Errorf("decode %s: %w", encoder, err)
		}
		return t.render(), nil
	}
	t := newTape()
	defer t.free()
	if err := t.decodeWith(encoder, text); err != nil {
		return "", fmt.Errorf("decode %s: %w", encoder, err)
	}
	return string(appendCompact(nil, t)), nil
}
