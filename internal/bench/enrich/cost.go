package enrich

import (
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

// Output prices relative to an uncached input token: what a model turn's output costs,
// which costsim does not price.
const (
	anthropicOutput = 5.0 // Claude Sonnet: $15 against $3 per million tokens
	openAIOutput    = 4.0 // gpt-4o: $10 against $2.50
)

// Cost is what one set of requests cost under each provider's prompt cache, output
// included, in uncached-input-token units.
type Cost struct {
	Anthropic float64 `json:"anthropic"`
	OpenAI    float64 `json:"openai"`
	Requests  int     `json:"requests"`
	Input     int     `json:"input_tokens"`
	Output    int     `json:"output_tokens"`
}

func (c *Cost) add(d Cost) {
	c.Anthropic += d.Anthropic
	c.OpenAI += d.OpenAI
	c.Requests += d.Requests
	c.Input += d.Input
	c.Output += d.Output
}

// conversation is a trajectory as the cache simulator sees it: its head (tool
// definitions, system prompt) and its messages as token ids, and which messages are the
// assistant's.
type conversation struct {
	head      [][]uint32
	msgs      [][]uint32
	assistant []bool
}

func newConversation(t traj.Trajectory, enc *costsim.Encoder) (*conversation, error) {
	c := &conversation{}
	seg := func(raw json.RawMessage) ([]uint32, error) {
		text, err := traj.Render(raw)
		if err != nil {
			return nil, err
		}
		return enc.Encode(text)
	}
	for i, tool := range t.Tools {
		ids, err := seg(tool)
		if err != nil {
			return nil, fmt.Errorf("%s: tool %d: %w", t.Name, i, err)
		}
		c.head = append(c.head, ids)
	}
	if t.System != "" {
		ids, err := enc.Encode(t.System)
		if err != nil {
			return nil, err
		}
		c.head = append(c.head, ids)
	}
	for i, raw := range t.Messages {
		ids, err := seg(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: message %d: %w", t.Name, i, err)
		}
		m, err := traj.ParseMessage(t.Dialect, raw)
		if err != nil {
			return nil, fmt.Errorf("%s: message %d: %w", t.Name, i, err)
		}
		c.msgs = append(c.msgs, ids)
		c.assistant = append(c.assistant, m.Role == "assistant")
	}
	return c, nil
}

// blockEnd returns the index of the last message of the block that starts at the
// assistant message a: a and the results and observations after it, up to the next
// assistant message.
func (c *conversation) blockEnd(a int) int {
	j := a + 1
	for j < len(c.msgs) && !c.assistant[j] {
		j++
	}
	return j - 1
}

// price prices the conversation's requests, one per assistant message after the first
// message (as traj.Requests sends them), each carrying the messages before it. A saved
// turn's request is not sent and its block (the assistant message and the results after
// it) is in no later request; extra[m] are segments that join the context right after
// message m, in every later request.
func (c *conversation) price(saved map[int]bool, extra map[int][][]uint32) (Cost, error) {
	removed := map[int]bool{}
	for a := range saved {
		for m := a; m <= c.blockEnd(a); m++ {
			removed[m] = true
		}
	}
	var reqs []costsim.Request
	var out Cost
	for a := 1; a < len(c.msgs); a++ {
		if !c.assistant[a] || saved[a] {
			continue
		}
		r := costsim.Request{Segments: append([][]uint32(nil), c.head...)}
		for m := 0; m < a; m++ {
			if !removed[m] {
				r.Segments = append(r.Segments, c.msgs[m])
			}
			r.Segments = append(r.Segments, extra[m]...)
		}
		reqs = append(reqs, r)
		out.Output += len(c.msgs[a])
	}
	a, _, err := costsim.Simulate(costsim.AnthropicPricing(), reqs)
	if err != nil {
		return Cost{}, err
	}
	o, _, err := costsim.Simulate(costsim.OpenAIPricing(openAIRead), reqs)
	if err != nil {
		return Cost{}, err
	}
	out.Requests, out.Input = a.Requests, a.Input
	out.Anthropic = a.Cost + float64(out.Output)*anthropicOutput
	out.OpenAI = o.Cost + float64(out.Output)*openAIOutput
	return out, nil
}

// openAIRead is gpt-4o's price of a cached input token.
const openAIRead = 0.5

// synthetic returns n token ids that no text encodes to, distinct for each seed: the
// stand-in for an inlined result, which the trajectory does not hold.
func synthetic(seed, n int) []uint32 {
	ids := make([]uint32, n)
	base := uint32(1<<31) + uint32(seed)<<16
	for i := range ids {
		ids[i] = base + uint32(i)
	}
	return ids
}
