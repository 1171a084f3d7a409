package compact

import (
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

// segmenter turns request bodies into cache-simulator requests. It
// renders and tokenises each distinct part (tool definition, system
// prompt, message) once: a message recurs in every later request of its
// conversation and, when a variant leaves it alone, in every variant.
type segmenter struct {
	enc  *costsim.Encoder
	memo map[string]segment // by the part's raw JSON
}

type segment struct {
	text string
	ids  []uint32
}

func newSegmenter(enc *costsim.Encoder) *segmenter {
	return &segmenter{enc: enc, memo: make(map[string]segment)}
}

func (s *segmenter) segment(raw json.RawMessage) (segment, error) {
	if seg, ok := s.memo[string(raw)]; ok {
		return seg, nil
	}
	text, err := traj.Render(raw)
	if err != nil {
		return segment{}, err
	}
	ids, err := s.enc.Encode(text)
	if err != nil {
		return segment{}, err
	}
	seg := segment{text: text, ids: ids}
	s.memo[string(raw)] = seg
	return seg, nil
}

// text returns the rendered text of one part, for the recall probe.
func (s *segmenter) text(raw json.RawMessage) (string, error) {
	seg, err := s.segment(raw)
	return seg.text, err
}

// request returns the simulator's view of a request: its tools, system
// prompt and messages, in that order, as token ids.
func (s *segmenter) request(p traj.Parts) (costsim.Request, error) {
	raws := make([]json.RawMessage, 0, len(p.Tools)+1+len(p.Messages))
	raws = append(raws, p.Tools...)
	if p.System != nil {
		raws = append(raws, p.System)
	}
	raws = append(raws, p.Messages...)
	r := costsim.Request{Segments: make([][]uint32, len(raws))}
	for i, raw := range raws {
		seg, err := s.segment(raw)
		if err != nil {
			return costsim.Request{}, fmt.Errorf("part %d: %w", i, err)
		}
		r.Segments[i] = seg.ids
	}
	return r, nil
}
