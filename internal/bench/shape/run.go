package shape

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	engine "github.com/winnowhq/winnow/internal/shape"
	"github.com/winnowhq/winnow/internal/shape/shapetest"
	"github.com/winnowhq/winnow/internal/tokens"
)

// DefaultSizes are the lengths of the generated arrays.
var DefaultSizes = []int{10, 100, 1000}

// Options configure a run. The zero Options run the fixtures and the
// generated arrays of DefaultSizes, counted with exact o200k, without
// TOON.
type Options struct {
	// Docs are more documents to measure, after the fixtures and the
	// generated arrays.
	Docs []shapetest.Doc
	// Sizes are the lengths of the generated arrays; nil means
	// DefaultSizes, empty means none.
	Sizes []int
	// Seed seeds the generator.
	Seed uint64
	// Encoding is the token encoding to count with; empty means o200k.
	Encoding tokens.Encoding
	// Toon runs the peer format; nil leaves it out of the report.
	Toon *Toon
}

// Run measures every document and returns the report. A document that is
// not JSON is reported with its shape and no counts for the JSON formats.
func Run(ctx context.Context, opts Options) (*Report, error) {
	enc := opts.Encoding
	if enc == "" {
		enc = tokens.O200k
	}
	counter, err := tokens.Exact(enc)
	if err != nil {
		return nil, err
	}
	docs, err := documents(opts)
	if err != nil {
		return nil, err
	}
	rep := &Report{Tokens: string(enc) + " (exact)", Toon: "not available: not requested"}
	for _, d := range docs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rep.Docs = append(rep.Docs, measure(d, counter.Count))
	}
	if opts.Toon != nil {
		if err := rep.addToon(ctx, opts.Toon, docs, counter.Count); err != nil {
			if !errors.Is(err, errToonUnavailable) {
				return nil, err
			}
			rep.Toon = "not available: " + err.Error()
		}
	}
	rep.summarize()
	return rep, nil
}

// documents lists the fixtures, the generated arrays and opts.Docs.
func documents(opts Options) ([]shapetest.Doc, error) {
	docs, err := shapetest.Fixtures()
	if err != nil {
		return nil, err
	}
	sizes := opts.Sizes
	if sizes == nil {
		sizes = DefaultSizes
	}
	for _, kind := range shapetest.Kinds() {
		for _, n := range sizes {
			d, err := shapetest.Generate(kind, n, opts.Seed)
			if err != nil {
				return nil, err
			}
			docs = append(docs, d)
		}
	}
	return append(docs, opts.Docs...), nil
}

// measure counts one document in every format winnow makes and checks
// the round trip of winnow's encoding.
func measure(d shapetest.Doc, count func(string) int) Doc {
	res := engine.Encode(d.Text, count)
	out := Doc{
		Name:    d.Name,
		Shape:   string(res.Shape),
		Bytes:   len(d.Text),
		Pretty:  res.Before,
		Winnow:  res.After,
		Encoder: res.Encoder,
	}
	if res.Rejected != "" {
		out.RoundTrip = "rejected by the gate: " + res.Rejected
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(d.Text)); err != nil {
		if out.RoundTrip == "" {
			out.RoundTrip = "kept (not JSON)"
		}
		return out
	}
	out.Compact = count(compact.String())
	if res.Encoder == "" {
		if out.RoundTrip == "" {
			out.RoundTrip = "kept"
		}
		return out
	}
	decoded, err := engine.Decode(res.Encoder, res.Text)
	switch {
	case err != nil:
		out.RoundTrip = "decode failed: " + err.Error()
	case sameJSON(d.Text, decoded):
		out.RoundTrip = "exact"
	default:
		out.RoundTrip = "differs"
	}
	return out
}

// addToon runs TOON over the JSON documents and adds its counts.
func (r *Report) addToon(ctx context.Context, t *Toon, docs []shapetest.Doc, count func(string) int) error {
	var texts []string
	var at []int
	for i, d := range docs {
		if r.Docs[i].Compact > 0 {
			texts = append(texts, d.Text)
			at = append(at, i)
		}
	}
	run, err := t.encode(ctx, texts)
	if err != nil {
		return err
	}
	r.Toon = fmt.Sprintf("@toon-format/toon %s (node %s, %s)", run.Version, run.Node, run.Module)
	for k, res := range run.Results {
		doc := &r.Docs[at[k]]
		if res.Error != "" {
			doc.ToonRoundTrip = "failed: " + res.Error
			continue
		}
		n := count(res.Toon)
		doc.Toon = &n
		switch {
		case sameJSON(texts[k], res.Decoded):
			doc.ToonRoundTrip = "exact"
		case res.JSEqual:
			doc.ToonRoundTrip = "js"
		default:
			doc.ToonRoundTrip = "differs"
		}
	}
	return nil
}

// isArrayOfObjects reports whether a document counts toward the target.
func isArrayOfObjects(d *Doc) bool {
	switch engine.Shape(d.Shape) {
	case engine.JSONArrayObjects, engine.JSONWrapperArray:
		return true
	}
	return false
}
