package llmproxy_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/llmproxy"
)

// envNodeModules names the node_modules directory holding @anthropic-ai/sdk and openai
// (.ci/run installs them and sets it).
const envNodeModules = "WINNOW_TEST_NODE_MODULES"

// TestNodeSDKs runs testdata/clients.cjs, which uses the official Node SDKs of Anthropic
// and OpenAI, against the proxy, with a rewriting Rewriter in it.
func TestNodeSDKs(t *testing.T) {
	modules := os.Getenv(envNodeModules)
	if modules == "" {
		t.Skipf("%s is not set; to run: npm install --prefix /tmp/npm-llm @anthropic-ai/sdk@1.11.0 openai@6.49.0 && %s=/tmp/npm-llm/node_modules go test ./internal/llmproxy/ (see .ci/run)", envNodeModules, envNodeModules)
	}
	for _, pkg := range []string{"@anthropic-ai/sdk", "openai"} {
		data, err := os.ReadFile(filepath.Join(modules, pkg, "package.json"))
		if err != nil {
			t.Fatalf("%s=%s but %s is not installed there: %v (run .ci/run, or npm install --prefix it)", envNodeModules, modules, pkg, err)
		}
		var meta struct{ Version string }
		json.Unmarshal(data, &meta)
		t.Logf("%s %s", pkg, meta.Version)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("%s is set but node is not on PATH: %v", envNodeModules, err)
	}

	h := newHarness(t, nil, &llmproxy.Options{Rewriter: newDropField(t, "metadata")})
	cmd := exec.CommandContext(t.Context(), node, filepath.Join("testdata", "clients.cjs"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules, "PROXY_URL="+h.url)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node clients.cjs: %v\n%s", err, stderr.String())
	}

	type text struct {
		Text    string `json:"text"`
		Stop    string `json:"stop,omitempty"`
		Rewrite string `json:"rewrite,omitempty"`
	}
	var got struct {
		Anthropic       text `json:"anthropic"`
		AnthropicStream struct {
			text
			Events []string `json:"events"`
		} `json:"anthropicStream"`
		OpenAI       text `json:"openai"`
		OpenAIStream struct {
			Text   string `json:"text"`
			Chunks int    `json:"chunks"`
		} `json:"openaiStream"`
		Error struct {
			Status  int    `json:"status"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node output %s: %v", out, err)
	}
	want := text{Text: "Hello, world", Stop: "end_turn", Rewrite: "changed"}
	if diff := cmp.Diff(want, got.Anthropic); diff != "" {
		t.Errorf("anthropic messages.create (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(text{Text: "Hello, world", Stop: "end_turn"}, got.AnthropicStream.text); diff != "" {
		t.Errorf("anthropic messages.stream (-want +got):\n%s", diff)
	}
	withoutPing := slices.DeleteFunc(slices.Clone(anthropicSequence), func(e string) bool { return e == "ping" }) // the SDK drops pings
	if diff := cmp.Diff(withoutPing, got.AnthropicStream.Events); diff != "" {
		t.Errorf("anthropic stream events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(text{Text: "Hello, world", Rewrite: "changed"}, got.OpenAI); diff != "" {
		t.Errorf("openai chat.completions.create (-want +got):\n%s", diff)
	}
	if got.OpenAIStream.Text != "Hello, world" || got.OpenAIStream.Chunks != 4 {
		t.Errorf("openai stream: %+v, want the text in 4 chunks", got.OpenAIStream)
	}
	if got.Error.Status != 529 || !strings.Contains(got.Error.Message, "fake status 529") {
		t.Errorf("error through the proxy: %+v", got.Error)
	}
	reqs := h.api.Requests()
	if len(reqs) != 5 {
		t.Fatalf("upstream received %d requests, want 5", len(reqs))
	}
	for _, r := range reqs {
		if strings.Contains(string(r.Body), "metadata") {
			t.Errorf("%s body still has metadata: %s", r.Path, r.Body)
		}
	}
}
