package llmproxy_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/compact/traj"
	"github.com/winnowhq/winnow/internal/llmproxy"
)

// TestCompaction replays real agent trajectories, request by request,
// through a proxy that compacts, and checks what the upstream received:
// smaller requests, announced in the x-winnow headers, whose rewritten
// history is sticky (each request extends the one before it except at a
// few batch points) and never loses a user message.
func TestCompaction(t *testing.T) {
	trajs, err := traj.Load(filepath.Join("..", "compact", "traj", "testdata", "trajectories"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, nil, &llmproxy.Options{Rewriter: llmproxy.Compaction(compact.New(compact.Options{}))})
	var sent, received, changed, breaks, requests int
	dialects := map[string]bool{}
	for _, tr := range trajs {
		path := "/v1/chat/completions"
		if tr.Dialect == traj.Anthropic {
			path = "/v1/messages"
		}
		dialects[tr.Dialect] = true
		var prev []json.RawMessage
		for req, err := range traj.Requests(tr, nil) {
			if err != nil {
				t.Fatal(err)
			}
			res := h.do(t, t.Context(), http.MethodPost, path, req.Body, nil)
			readAll(t, res)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s turn %d: status %d", tr.Name, req.Turn, res.StatusCode)
			}
			got := h.lastReceived(t)
			requests++
			sent += len(req.Body)
			received += len(got.Body)
			if res.Header.Get(llmproxy.HeaderRewrite) == llmproxy.RewriteChanged {
				changed++
				before, _ := strconv.Atoi(res.Header.Get(llmproxy.HeaderTokensBefore))
				after, _ := strconv.Atoi(res.Header.Get(llmproxy.HeaderTokensAfter))
				if after <= 0 || after >= before {
					t.Errorf("%s turn %d: changed, but tokens %d → %d", tr.Name, req.Turn, before, after)
				}
			}
			var body struct{ Messages []json.RawMessage }
			if err := json.Unmarshal(got.Body, &body); err != nil {
				t.Fatalf("%s turn %d: the upstream got invalid JSON: %v", tr.Name, req.Turn, err)
			}
			if !extends(body.Messages, prev) {
				breaks++
			}
			prev = body.Messages
		}
	}
	if !dialects[traj.Anthropic] || !dialects[traj.OpenAI] {
		t.Fatalf("the trajectories cover dialects %v; want both", dialects)
	}
	t.Logf("%d requests, %d rewritten; %d bytes sent by the client, %d received upstream (%.2f); %d cache breaks",
		requests, changed, sent, received, float64(received)/float64(sent), breaks)
	if changed == 0 || received >= sent*8/10 {
		t.Errorf("compaction through the proxy saved too little: %d of %d bytes forwarded, %d requests rewritten", received, sent, changed)
	}
	if breaks > requests/5 {
		t.Errorf("%d of %d requests do not extend the previous one: rewrites are not sticky", breaks, requests)
	}
}

// extends reports whether msgs starts with every message of prev, byte
// for byte.
func extends(msgs, prev []json.RawMessage) bool {
	if len(msgs) < len(prev) {
		return false
	}
	for i := range prev {
		if !bytes.Equal(msgs[i], prev[i]) {
			return false
		}
	}
	return true
}
