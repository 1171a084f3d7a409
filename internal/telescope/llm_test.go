package telescope

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/llm"
)

// fakeAPI is an in-test model server speaking the Anthropic Messages and the OpenAI chat
// completions wire formats. It answers each prompt with a summary naming the file, or, for
// files named in short or failing, with a one-word answer or a 500. It records every request.
type fakeAPI struct {
	mu       sync.Mutex
	calls    map[string]int // by file path
	total    int
	keys     []string // the credentials received
	models   []string
	prompts  []string
	short    map[string]bool
	failing  map[string]bool
	provider string
}

var promptPath = regexp.MustCompile(`<file path="([^"]+)">`)

func newFakeAPI(t *testing.T, provider string) (*fakeAPI, *httptest.Server) {
	f := &fakeAPI{calls: map[string]int{}, short: map[string]bool{}, failing: map[string]bool{}, provider: provider}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	prompt := messageText(req.Messages[len(req.Messages)-1].Content)
	path := "?"
	if m := promptPath.FindStringSubmatch(prompt); m != nil {
		path = m[1]
	}
	f.mu.Lock()
	f.calls[path]++
	f.total++
	f.models = append(f.models, req.Model)
	f.prompts = append(f.prompts, prompt)
	switch {
	case f.provider == "anthropic" && r.URL.Path == "/v1/messages":
		f.keys = append(f.keys, r.Header.Get("X-Api-Key"))
	case f.provider == "openai" && r.URL.Path == "/v1/chat/completions":
		f.keys = append(f.keys, r.Header.Get("Authorization"))
	default:
		f.mu.Unlock()
		http.Error(w, "wrong path "+r.URL.Path, http.StatusNotFound)
		return
	}
	short, failing := f.short[path], f.failing[path]
	f.mu.Unlock()
	if failing {
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"upstream broke"}}`, http.StatusInternalServerError)
		return
	}
	answer := fmt.Sprintf("%s holds the shop's logic for this part; it defines the main functions and types, and reads no secrets.", path)
	out := 24
	if short {
		answer, out = "ok", 1
	}
	w.Header().Set("Content-Type", "application/json")
	if f.provider == "anthropic" {
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": req.Model,
			"content":     []map[string]any{{"type": "text", "text": answer}},
			"stop_reason": "end_turn",
			"usage":       map[string]any{"input_tokens": 100, "output_tokens": out},
		})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": req.Model,
		"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": out, "total_tokens": 100 + out},
	})
}

func messageText(c any) string {
	switch v := c.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, p := range v {
			if m, ok := p.(map[string]any); ok {
				if s, ok := m["text"].(string); ok {
					b.WriteString(s)
				}
			}
		}
		return b.String()
	}
	return ""
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.total
}

func (f *fakeAPI) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls, f.total = map[string]int{}, 0
}

// llmEngine returns an engine whose registry calls srv as provider.
func llmEngine(t *testing.T, root string, st Store, provider string, srv *httptest.Server, specs ...Spec) *Engine {
	t.Helper()
	base := srv.URL
	if provider == "openai" {
		base += "/v1"
	}
	client, err := llm.New(&llm.Options{
		Provider: llm.Provider(provider), BaseURL: base, APIKey: "sk-test-secret", Model: "cheap-1",
		MaxRetries: 2, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := NewRegistry(specs, client)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(&Options{Root: root, Store: st, Strategies: reg})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestLLMStrategy(t *testing.T) {
	for _, provider := range []string{"anthropic", "openai"} {
		t.Run(provider, func(t *testing.T) {
			root := fixture(t)
			api, srv := newFakeAPI(t, provider)
			st, url := sqliteStore(t)
			first := build(t, llmEngine(t, root, st, provider, srv), Request{Strategy: LLMSummary})
			units := first.Stats.Units
			if api.count() != units || first.Stats.LLM.Calls != units {
				t.Fatalf("first build: %d calls to the API, %d counted, want %d", api.count(), first.Stats.LLM.Calls, units)
			}
			if first.Stats.LLM.InputTokens != 100*units || first.Stats.LLM.OutputTokens != 24*units || first.Stats.LLM.Fallbacks != 0 {
				t.Errorf("llm stats %+v", first.Stats.LLM)
			}
			wantKey := "sk-test-secret"
			if provider == "openai" {
				wantKey = "Bearer sk-test-secret"
			}
			for i, k := range api.keys {
				if k != wantKey || api.models[i] != "cheap-1" {
					t.Fatalf("request %d: key %q model %q", i, k, api.models[i])
				}
			}
			if !strings.Contains(strings.Join(api.prompts, "\n"), `cur.execute("SELECT * FROM orders WHERE id = " + order_id)`) {
				t.Error("the prompts do not carry the files' content")
			}

			// A second process over the same store makes no call at all.
			api.reset()
			second := build(t, llmEngine(t, root, openStore(t, url), provider, srv), Request{Strategy: LLMSummary})
			if api.count() != 0 || second.Stats.LLM.Calls != 0 {
				t.Errorf("second build: %d calls, want 0", api.count())
			}
			if second.Index != first.Index {
				t.Error("second build: a different index")
			}

			e := llmEngine(t, root, openStore(t, url), provider, srv)
			n, err := e.Node(t.Context(), first.KeyMap["L1:shop/orders.py"])
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(n.Text, "shop/orders.py holds the shop's logic") || n.Strategy != LLMSummary || n.LLMOutputTokens != 24 {
				t.Errorf("orders.py node: %+v", n)
			}
		})
	}
}

func TestLLMFallback(t *testing.T) {
	root := fixture(t)
	api, srv := newFakeAPI(t, "anthropic")
	api.short["shop/payments/card.py"] = true
	api.failing["server/main.go"] = true
	st := newMemStore()
	res := build(t, llmEngine(t, root, st, "anthropic", srv), Request{Strategy: LLMSummary})
	if res.Stats.LLM.Fallbacks != 2 {
		t.Errorf("%d fallbacks, want 2", res.Stats.LLM.Fallbacks)
	}
	if api.calls["server/main.go"] != 3 {
		t.Errorf("a failing call was tried %d times, want 3 (2 retries)", api.calls["server/main.go"])
	}
	e := llmEngine(t, root, st, "anthropic", srv)
	build(t, e, Request{Strategy: LLMSummary}) // fills e's memory for Node
	for path, why := range map[string]string{"shop/payments/card.py": "implausibly short answer (1 tokens)", "server/main.go": "HTTP 500"} {
		n, err := e.Node(t.Context(), res.KeyMap["L1:"+path])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(n.Fallback, why) || n.Strategy != CodeSignature || !strings.Contains(n.Text, path) {
			t.Errorf("%s: fallback %q strategy %s, want %q and code_signature", path, n.Fallback, n.Strategy, why)
		}
		if strings.Contains(n.Fallback, "sk-test-secret") {
			t.Errorf("the API key leaked into a fallback reason: %s", n.Fallback)
		}
	}
	if s := res.Stats.Strategies[CodeSignature]; s == nil || s.Units != 2 {
		t.Errorf("per-strategy stats do not show the fallbacks: %+v", res.Stats.Strategies)
	}

	// Fallbacks are not cached: the next build asks the model again for those files only.
	api.reset()
	api.short, api.failing = map[string]bool{}, map[string]bool{}
	again := build(t, llmEngine(t, root, st, "anthropic", srv), Request{Strategy: LLMSummary})
	if api.count() != 2 || api.calls["shop/payments/card.py"] != 1 || api.calls["server/main.go"] != 1 {
		t.Errorf("next build called %v, want the two fallen-back files once each", api.calls)
	}
	if again.Stats.LLM.Fallbacks != 0 || again.Stats.Computed.Units != 2 {
		t.Errorf("next build: %+v", again.Stats)
	}
}

func TestLLMPurposeInPrompt(t *testing.T) {
	root := fixture(t)
	api, srv := newFakeAPI(t, "openai")
	spec := Spec{Name: "focused", Version: 1, Kind: KindLLM, Prompt: `Purpose: {{.Purpose}}. Summarise <file path="{{.Path}}">{{.Content}}</file>`, TargetTokens: 50}
	e := llmEngine(t, root, newMemStore(), "openai", srv, spec)
	a := build(t, e, Request{Strategy: "focused", Purpose: "orders database", Levels: 1})
	b := build(t, e, Request{Strategy: "focused", Purpose: "orders export", Levels: 1})
	if a.KeyMap["L1:shop/orders.py"] == b.KeyMap["L1:shop/orders.py"] {
		t.Error("a prompt using the purpose gives the same id for different purposes")
	}
	if !strings.Contains(api.prompts[0], "Purpose: orders database.") {
		t.Errorf("prompt %q", api.prompts[0])
	}
	plain := build(t, e, Request{Strategy: "code_signature", Purpose: "orders database", Levels: 1})
	other := build(t, e, Request{Strategy: "code_signature", Purpose: "orders export", Levels: 1})
	if plain.KeyMap["L1:shop/orders.py"] != other.KeyMap["L1:shop/orders.py"] {
		t.Error("a deterministic strategy's unit ids depend on the purpose")
	}
}
