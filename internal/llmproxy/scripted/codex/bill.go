package codex

import (
	"fmt"

	"github.com/winnowhq/winnow/internal/compact/costsim"
)

// DefaultCacheRead is the price of a cached input token relative to an uncached one for
// the GPT-5 family, which Codex's models belong to.
const DefaultCacheRead = 0.1

// A biller turns requests into costsim segments of o200k token ids: the instructions
// and tools, then one segment per input item, each item rendered as the model reads it.
// Items repeat in every later request of a conversation, so each rendering is encoded
// once.
type biller struct {
	enc  *costsim.Encoder
	memo map[string][]uint32
}

func newBiller() (*biller, error) {
	enc, err := costsim.NewEncoder()
	if err != nil {
		return nil, fmt.Errorf("billing: %w", err)
	}
	return &biller{enc: enc, memo: map[string][]uint32{}}, nil
}

func (b *biller) encode(s string) ([]uint32, error) {
	if ids, ok := b.memo[s]; ok {
		return ids, nil
	}
	ids, err := b.enc.Encode(s)
	if err != nil {
		return nil, fmt.Errorf("billing: %w", err)
	}
	b.memo[s] = ids
	return ids, nil
}

// count returns the number of o200k tokens in s.
func (b *biller) count(s string) int {
	ids, _ := b.encode(s) // the vocabulary was built in newBiller; Encode does not fail after
	return len(ids)
}

// segments returns the prompt of r as a prompt cache sees it.
func (b *biller) segments(r *request, l *ledger) ([][]uint32, error) {
	lastUser := -1
	for i := range r.items {
		if r.items[i].Type == typeMessage && r.items[i].Role == "user" {
			lastUser = i
		}
	}
	segs := make([][]uint32, 0, 1+len(r.items))
	head, err := b.encode(r.Instructions + "\n" + string(r.Tools))
	if err != nil {
		return nil, err
	}
	segs = append(segs, head)
	for i := range r.items {
		ids, err := b.encode(render(&r.items[i], l, i > lastUser))
		if err != nil {
			return nil, err
		}
		segs = append(segs, ids)
	}
	return segs, nil
}

// render returns an input item as the model reads it: a message's role and text, a
// tool call's name and arguments, a tool output's text, and for a reasoning item the
// reasoning it stands for when it comes after the last user message (the API drops
// older reasoning from the context, and so from the bill).
func render(it *item, l *ledger, current bool) string {
	switch it.Type {
	case typeMessage:
		return it.Role + "\n" + text(it.Content)
	case typeFunctionCall:
		return it.Name + "\n" + it.Arguments
	case typeCustomCall:
		return it.Name + "\n" + it.Input
	case typeLocalShellCall:
		return "local_shell\n" + string(it.Action)
	case typeFunctionOutput, typeCustomOutput, typeLocalShellOutput:
		return text(it.Output)
	case typeReasoning:
		if is := l.lookup(it); is != nil && current {
			return is.hidden
		}
		return ""
	}
	return string(it.raw)
}
