package compact

import (
	"fmt"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

// fuzzOptions fire batches, snip, trim and dedup on conversations of a
// few messages.
var fuzzOptions = Options{
	Keep: 1, Trigger: 1, MinBatch: 1, Payback: -1, SnipFirst: 1,
	ClearMin: 10, SnipMin: 20, SnipHead: 1, SnipTail: 1, DedupMin: 5, ArgsMin: 40,
	HardLimit: 300, Sink: 2,
}

// FuzzRewrite feeds Rewrite arbitrary bodies: it never panics, never
// fails on a body that decodes, and whatever it returns in place of the
// body decodes and keeps every invariant, checked again from the bytes.
func FuzzRewrite(f *testing.F) {
	body, _ := openAIAgent()
	f.Add(false, []byte(body))
	f.Add(true, []byte(thinkingAgent(11)))
	f.Add(true, []byte(textFormAgent()))
	f.Add(true, []byte(`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"y"}]}]}`))
	f.Add(false, []byte(`{"messages":[{"role":"tool","tool_call_id":"x","content":"y"}]}`))
	ts, err := traj.Load(trajectoryDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, tr := range ts {
		n := 0
		for r := range traj.Requests(tr, nil) {
			if n++; n == 6 && len(r.Body) < 40_000 {
				f.Add(tr.Dialect == traj.Anthropic, r.Body)
			}
		}
	}
	f.Fuzz(func(t *testing.T, anthropic bool, body []byte) {
		d := chat.OpenAI
		if anthropic {
			d = chat.Anthropic
		}
		for _, c := range []*Compactor{New(fuzzOptions), New(Options{})} {
			out, sum, err := c.Rewrite(string(d), body)
			if err != nil {
				if _, derr := decodeBody(string(d), body); derr == nil {
					t.Fatalf("Rewrite failed on a body that decodes: %v", err)
				}
				continue
			}
			if !sum.Changed {
				if string(out) != string(body) {
					t.Fatal("unchanged, but the body returned differs")
				}
				continue
			}
			checkBytes(t, c, d, body, out)
		}
	})
}

// checkBytes decodes orig and out on their own and validates out, with
// the prefix a kept thinking block was produced after recomputed.
func checkBytes(t *testing.T, c *Compactor, d chat.Dialect, orig, out []byte) {
	t.Helper()
	o, err := decodeBody(string(d), orig)
	if err != nil {
		t.Fatal(err)
	}
	x, err := decodeBody(string(d), out)
	if err != nil {
		t.Fatalf("the compacted body does not decode: %v\n%s", err, out)
	}
	var sent *chat.Conversation
	for i := len(x.Messages) - 1; i >= 0 && sent == nil; i-- {
		if countThinking(x.Messages[i].Parts) > 0 {
			// Decoded on its own, out shares no origins with orig: find the
			// block's message in orig by its bytes.
			for oi := range o.Messages {
				if o.Messages[oi].Identical(&x.Messages[i]) {
					p := o.Clone()
					p.Messages = p.Messages[:oi]
					sent = mustEncodeDecode(t, c, d, p)
				}
			}
		}
	}
	if vs := ValidateBound(d, o, x, sent); len(vs) > 0 {
		t.Fatalf("violations %v in\n%s\nfrom\n%s", vs, out, orig)
	}
}

// mustEncodeDecode compacts p and decodes the encoded result, so that it
// compares with a conversation decoded from bytes.
func mustEncodeDecode(t *testing.T, c *Compactor, d chat.Dialect, p *chat.Conversation) *chat.Conversation {
	t.Helper()
	r, _ := c.Run(string(d), p)
	_, encode, _ := codec(string(d))
	b, err := encode(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := decodeBody(string(d), b)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// FuzzConversation builds a valid agent conversation from the fuzzer's
// bytes (tool loops, parallel calls, repeated outputs, thinking, text-form
// commands, a person's messages) and compacts every request of it: no
// request may break an invariant, and each must extend the one before
// except at a batch point.
func FuzzConversation(f *testing.F) {
	f.Add(true, true, []byte("\x00\x10\x01\x20\x00\x30\x02\x05\x00\x40\x00\x08\x01\x02"))
	f.Add(false, false, []byte("\x00\x33\x00\x33\x00\x21\x03\x01\x00\x30\x00\x30\x00\x11"))
	f.Add(true, false, []byte("\x04\x20\x04\x33\x04\x33\x02\x01\x04\x10\x04\x40"))
	f.Fuzz(func(t *testing.T, anthropic, thinking bool, program []byte) {
		d := chat.OpenAI
		if anthropic {
			d = chat.Anthropic
		}
		msgs := generate(d, thinking, program)
		c := New(fuzzOptions)
		var prev []string
		var prevBatches []Batch
		for m := 1; m <= len(msgs); m++ {
			if strings.Contains(msgs[m-1], `"role":"assistant"`) || m < len(msgs) && strings.HasPrefix(msgs[m], `{"role":"tool"`) {
				continue // a request ends after all the results of the last calls
			}
			body := requestBody(d, thinking, msgs[:m])
			out, sum, err := c.Rewrite(string(d), []byte(body))
			if err != nil || len(sum.Violations) > 0 {
				t.Fatalf("request of %d messages: %v %v\n%s", m, err, sum.Violations, body)
			}
			if sum.Changed {
				checkBytes(t, c, d, []byte(body), out)
			}
			got := messagesOf(t, out)
			if prev != nil {
				shared := len(prev)
				if len(sum.Batches) > len(prevBatches) {
					from := len(prev) + dropped(prevBatches, len(prev))
					for _, b := range sum.Batches[len(prevBatches):] {
						from = min(from, b.From)
					}
					shared = from - dropped(prevBatches, from)
				}
				for i := range shared {
					if prev[i] != got[i] {
						t.Fatalf("request of %d messages: message %d changed without a batch:\n%s\n%s", m, i, prev[i], got[i])
					}
				}
			}
			prev, prevBatches = got, sum.Batches
		}
	})
}

// generate turns program into the messages of a valid conversation: each
// pair of bytes is an opcode and an argument.
func generate(d chat.Dialect, thinking bool, program []byte) []string {
	msgs := []string{`{"role":"user","content":"Fix the bug."}`}
	var outputs []string
	id := 0
	textForm := len(program) > 0 && program[0]%5 == 4
	think := func() string {
		if !thinking || d != chat.Anthropic {
			return ""
		}
		id++
		return fmt.Sprintf(`{"type":"thinking","thinking":"hmm %d","signature":"s%d"},`, id, id)
	}
	output := func(arg byte) string {
		if arg%4 == 3 && len(outputs) > 0 {
			return outputs[int(arg)%len(outputs)] // the same output again
		}
		s := lines(fmt.Sprintf("out%d", len(outputs)), int(arg%64)+1)
		outputs = append(outputs, s)
		return s
	}
	for i := 0; i+1 < len(program) && len(msgs) < 40; i += 2 {
		op, arg := program[i]%5, program[i+1]
		switch {
		case textForm:
			msgs = append(msgs,
				`{"role":"assistant","content":`+js(fmt.Sprintf("Next.\n\n<function=bash>\n<parameter=command>cat f%d</parameter>\n</function>", arg%7))+`}`,
				`{"role":"user","content":`+js("OBSERVATION:\n"+output(arg))+`}`)
		case op <= 1 || op == 4: // one or more tool calls and their results
			n := 1 + int(arg%3)*int(op%2)
			var calls, results []string
			for range n {
				id++
				args := fmt.Sprintf(`{"path":"f%d.py","content":%s}`, arg%5, js(strings.Repeat("z", int(arg))))
				out := output(arg + byte(id))
				if d == chat.Anthropic {
					calls = append(calls, fmt.Sprintf(`{"type":"tool_use","id":"t%d","name":"write","input":%s}`, id, args))
					results = append(results, fmt.Sprintf(`{"type":"tool_result","tool_use_id":"t%d","content":%s}`, id, js(out)))
				} else {
					calls = append(calls, fmt.Sprintf(`{"id":"t%d","type":"function","function":{"name":"write","arguments":%s}}`, id, js(args)))
					results = append(results, fmt.Sprintf(`{"role":"tool","tool_call_id":"t%d","content":%s}`, id, js(out)))
				}
			}
			if d == chat.Anthropic {
				msgs = append(msgs, `{"role":"assistant","content":[`+think()+strings.Join(calls, ",")+`]}`,
					`{"role":"user","content":[`+strings.Join(results, ",")+`]}`)
			} else {
				msgs = append(msgs, `{"role":"assistant","content":"Working.\n\n---\n","tool_calls":[`+strings.Join(calls, ",")+`]}`)
				msgs = append(msgs, results...)
			}
		case op == 2: // the turn ends, and a person writes
			text := js(fmt.Sprintf("Done with step %d.\n\n...\n", arg))
			if d == chat.Anthropic {
				msgs = append(msgs, `{"role":"assistant","content":[`+think()+`{"type":"text","text":`+text+`}]}`)
			} else {
				msgs = append(msgs, `{"role":"assistant","content":`+text+`}`)
			}
			msgs = append(msgs, `{"role":"user","content":`+js(fmt.Sprintf("Now step %d.", arg))+`}`)
		case op == 3: // the person writes at length
			if d == chat.Anthropic {
				msgs = append(msgs, `{"role":"assistant","content":[`+think()+`{"type":"text","text":"Question?"}]}`)
			} else {
				msgs = append(msgs, `{"role":"assistant","content":"Question?"}`)
			}
			msgs = append(msgs, `{"role":"user","content":`+js(lines("answer", int(arg%50)+1))+`}`)
		}
	}
	return msgs
}

func requestBody(d chat.Dialect, thinking bool, msgs []string) string {
	extra := ""
	if d == chat.Anthropic && thinking {
		extra = `"thinking":{"type":"enabled","budget_tokens":1024},`
	}
	return `{"model":"m","max_tokens":100,` + extra + `"messages":[` + strings.Join(msgs, ",") + `]}`
}
