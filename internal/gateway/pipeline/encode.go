package pipeline

import (
	"context"

	"github.com/winnowhq/winnow/internal/shape"
	"github.com/winnowhq/winnow/internal/telemetry"
)

// Encode is the stage that re-encodes each text losslessly into a shorter
// form when package shape has one (a JSON array of objects as a table, a
// JSON object as key: value lines, compact JSON, ...). shape.Encode only
// returns an encoding that has fewer tokens and decodes back to the same
// data; Encode keeps it only if it is shorter by the pipeline's counter
// too.
type Encode struct{}

// Name implements Stage.
func (Encode) Name() string { return "encode" }

// Before implements Stage; encoding happens after dispatch.
func (Encode) Before(context.Context, *Turn) error { return nil }

// After implements Stage.
func (Encode) After(_ context.Context, t *Turn) error {
	for _, tx := range t.Texts {
		if tx.Final || tx.whole {
			continue // a whole structured content must stay JSON
		}
		r, spans := shape.EncodeBelowSpans(tx.Text, t.count, t.below, tx.spans[:0])
		tx.spans, tx.spansOf = spans, tx.Text
		tx.Shape = string(r.Shape)
		if tx.Text == tx.Upstream {
			tx.upstreamTokens = r.Before
		}
		tx.tokens = r.Before
		if r.Encoder == "" || r.After >= r.Before || r.Text == tx.Text {
			continue
		}
		tx.record(telemetry.LayerEncode, tx.Text, r.Text)
		tx.Text, tx.Encoder, tx.tokens = r.Text, r.Encoder, r.After
	}
	return nil
}
