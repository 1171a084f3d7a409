package codex

import (
	"testing"
)

// FuzzDrop checks the pairing and reasoning rules as one property: dropping items from a
// valid input is valid exactly when each step's reasoning, call and output are dropped
// all together or not at all (messages may go freely).
func FuzzDrop(f *testing.F) {
	s, err := StartServer(&ServerOptions{Steps: 6, PatchEvery: 3})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	c := newClient(f, s)
	for range 5 {
		c.turn()
	}
	f.Add([]byte{0})
	f.Add([]byte{0x1c})       // the first step whole
	f.Add([]byte{0x04})       // a reasoning item alone
	f.Add([]byte{0, 0x0e, 0}) // parts of two steps
	f.Fuzz(func(t *testing.T, mask []byte) {
		dropped := func(i int) bool { return i/8 < len(mask) && mask[i/8]&(1<<(i%8)) != 0 }
		var in []jsonObj
		for i, it := range c.input {
			if !dropped(i) {
				in = append(in, it)
			}
		}
		want := true
		for i := 2; i+2 < len(c.input); i += 3 { // developer, user, then (reasoning, call, output) per step
			if n := btoi(dropped(i)) + btoi(dropped(i+1)) + btoi(dropped(i+2)); n == 1 || n == 2 {
				want = false
			}
		}
		req, err := decodeRequest(c.body(in))
		if err != nil {
			t.Fatal(err)
		}
		vs := s.ledger.check(req)
		if got := len(vs) == 0; got != want {
			t.Errorf("mask %08b: valid %v, want %v; violations %v", mask, got, want, vs)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBillDropsOldReasoning: reasoning items before the last user message are out of
// the context, and out of the bill; those after it are billed as their reasoning text.
func TestBillDropsOldReasoning(t *testing.T) {
	s, err := StartServer(&ServerOptions{Steps: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newClient(t, s)
	c.turn()
	c.turn()
	reasoningTokens := func(in []jsonObj) []int {
		req, err := decodeRequest(c.body(in))
		if err != nil {
			t.Fatal(err)
		}
		segs, err := s.bill.segments(req, s.ledger)
		if err != nil {
			t.Fatal(err)
		}
		var n []int
		for i, it := range req.items {
			if it.Type == typeReasoning {
				n = append(n, len(segs[1+i]))
			}
		}
		return n
	}
	for _, n := range reasoningTokens(c.input) {
		if n < 100 {
			t.Errorf("a reasoning item of this turn is billed %d tokens, want its reasoning text", n)
		}
	}
	later := append(c.input, jsonObj{"type": "message", "role": "user", "content": "next task"})
	for _, n := range reasoningTokens(later) {
		if n != 0 {
			t.Errorf("a reasoning item of an earlier turn is billed %d tokens, want 0", n)
		}
	}
}
