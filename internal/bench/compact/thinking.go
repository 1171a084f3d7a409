package compact

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// Synthetic thinking: the recorded trajectories carry none, so the
// thinking benchmark writes a signed block at the start of every
// assistant message. Its text and signature depend only on the message's
// index, so every replay of a trajectory sends the same bytes.
const (
	thinkingMinWords  = 140 // the text is 140 to 259 words: about 150 to 300 o200k tokens
	thinkingWordRange = 120
	signatureBytes    = 300 // 400 characters of base64
)

// thinkingWords is the vocabulary of the synthetic thinking text: words
// an agent reasons with, so that the tokeniser sees ordinary prose.
var thinkingWords = strings.Fields(`the test fails because parser reads a path before it checks
	whether file exists so I should look at function that builds config then run failing case
	again with smaller input and compare output to what expected error message says about line
	number this means fix belongs in loader not in caller next step is to open module search
	for where value is set confirm assumption read traceback carefully edit one place only keep
	change small`)

// WithThinking returns t, an Anthropic trajectory, with a signed
// thinking block at the start of every assistant message that does not
// already start with one: {"type":"thinking","thinking":…,"signature":…}.
// The text is a paragraph of about 150 to 300 tokens and the signature
// 300 bytes in base64, both derived from the message's index alone.
// String content becomes a text block after the thinking (none when the
// string is blank). Other messages are unchanged.
//
// Real blocks vary: models with display "omitted" return an empty
// thinking text and only the signature, and real thinking is often far
// longer than this; the benchmark measures what compaction does around
// blocks of a typical, fixed size.
func WithThinking(t traj.Trajectory) (traj.Trajectory, error) {
	if t.Dialect != traj.Anthropic {
		return traj.Trajectory{}, fmt.Errorf("with thinking %s: %s messages; convert them with ToAnthropic first", t.Name, t.Dialect)
	}
	out := t
	out.Messages = make([]json.RawMessage, len(t.Messages))
	for i, raw := range t.Messages {
		m, err := withThinking(i, raw)
		if err != nil {
			return traj.Trajectory{}, fmt.Errorf("with thinking %s: message %d: %w", t.Name, i, err)
		}
		out.Messages[i] = m
	}
	return out, nil
}

func withThinking(i int, raw json.RawMessage) (json.RawMessage, error) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if m.Role != "assistant" {
		return raw, nil
	}
	var blocks []json.RawMessage
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		if strings.TrimSpace(s) != "" {
			b, err := encode(textBlock{Type: "text", Text: s})
			if err != nil {
				return nil, err
			}
			blocks = append(blocks, b)
		}
	} else if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return nil, fmt.Errorf("content: want a string or a list of blocks: %w", err)
	}
	if len(blocks) > 0 && isThinkingBlock(blocks[0]) {
		return raw, nil
	}
	think, err := encode(thinkingBlock{Type: "thinking", Thinking: ThinkingText(i), Signature: Signature(i)})
	if err != nil {
		return nil, err
	}
	return encode(struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}{"assistant", append([]json.RawMessage{think}, blocks...)})
}

type thinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature,omitempty"`
}

// isThinkingBlock reports whether a content block is thinking or
// redacted thinking.
func isThinkingBlock(raw json.RawMessage) bool {
	var b struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(raw, &b) == nil && (b.Type == "thinking" || b.Type == "redacted_thinking")
}

// ThinkingText is the synthetic thinking of the assistant message at
// index i: "Step i: I should look at" and then words drawn from a small
// vocabulary by a generator seeded with i, in sentences of up to twelve
// words.
func ThinkingText(i int) string {
	r := stream(fmt.Sprintf("winnow bench thinking text %d", i))
	n := thinkingMinWords + int(r.next()%thinkingWordRange)
	var b strings.Builder
	fmt.Fprintf(&b, "Step %d: I should look at", i)
	for k := range n {
		w := thinkingWords[r.next()%uint64(len(thinkingWords))]
		if k%12 == 11 {
			b.WriteString(" " + w + ".")
			continue
		}
		b.WriteString(" " + w)
	}
	b.WriteByte('.')
	return b.String()
}

// Signature is the synthetic signature of the thinking block of the
// assistant message at index i: signatureBytes bytes of a SHA-256 chain
// seeded with i, in standard base64.
func Signature(i int) string {
	r := stream(fmt.Sprintf("winnow bench thinking signature %d", i))
	var raw bytes.Buffer
	for raw.Len() < signatureBytes {
		raw.Write(binary.BigEndian.AppendUint64(nil, r.next()))
	}
	return base64.StdEncoding.EncodeToString(raw.Bytes()[:signatureBytes])
}

// sha256Stream is a deterministic generator: the words of a SHA-256 hash
// chain.
type sha256Stream struct {
	h [sha256.Size]byte
	k int
}

func stream(seed string) *sha256Stream { return &sha256Stream{h: sha256.Sum256([]byte(seed))} }

func (s *sha256Stream) next() uint64 {
	if s.k == sha256.Size/8 {
		s.h, s.k = sha256.Sum256(s.h[:]), 0
	}
	v := binary.BigEndian.Uint64(s.h[8*s.k:])
	s.k++
	return v
}

// thinkingRequests returns the requests of t, as traj.Requests builds
// them, naming model and asking for adaptive thinking:
// "thinking":{"type":"adaptive"} leads every body.
func thinkingRequests(t traj.Trajectory, model string) ([]traj.Request, error) {
	var reqs []traj.Request
	for r, err := range traj.Requests(t, &traj.RequestOptions{Model: model}) {
		if err != nil {
			return nil, err
		}
		if len(r.Body) == 0 || r.Body[0] != '{' {
			return nil, fmt.Errorf("requests of %s: turn %d: a body that is not an object", t.Name, r.Turn)
		}
		r.Body = append([]byte(`{"thinking":{"type":"adaptive"},`), r.Body[1:]...)
		reqs = append(reqs, r)
	}
	return reqs, nil
}
