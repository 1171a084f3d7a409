package compact

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
)

func TestRewriteErrors(t *testing.T) {
	body, _ := openAIAgent()
	for _, tc := range []struct {
		name, dialect, body string
		want                error
	}{
		{"unknown dialect", "gemini", body, ErrDialect},
		{"not JSON", "openai", `{"messages":[`, chat.ErrMalformed},
		{"not a request", "anthropic", `{"messages":3}`, chat.ErrShape},
		{"not an object", "openai", `[1,2]`, chat.ErrShape},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.body)
			out, sum, err := Rewrite(tc.dialect, in, testOptions)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if !bytes.Equal(out, in) || sum.Changed {
				t.Errorf("returned %q (changed %v), want the body as given", out, sum.Changed)
			}
		})
	}
}

func TestRewriteUnchanged(t *testing.T) {
	// Too short to compact with the defaults: the very same bytes come back.
	body, _ := openAIAgent()
	in := []byte(body)
	out, sum, err := Rewrite("openai", in, Options{})
	if err != nil || sum.Changed || len(sum.Batches) != 0 || &out[0] != &in[0] {
		t.Errorf("err %v, summary %+v; want the body itself", err, sum)
	}
	if sum.TokensBefore == 0 || sum.TokensAfter != sum.TokensBefore {
		t.Errorf("tokens %d → %d", sum.TokensBefore, sum.TokensAfter)
	}
}

func TestRewriteChanged(t *testing.T) {
	body, _ := openAIAgent()
	in := []byte(body)
	keep := bytes.Clone(in)
	out, sum, err := Rewrite("openai", in, testOptions)
	if err != nil || !sum.Changed || len(sum.Violations) > 0 {
		t.Fatalf("err %v, summary %+v", err, sum)
	}
	if !bytes.Equal(in, keep) {
		t.Error("Rewrite modified the body it was given")
	}
	if sum.TokensAfter >= sum.TokensBefore || sum.Horizon != 12 || len(sum.Batches) == 0 || len(sum.Reports) != len(PassNames()) {
		t.Errorf("summary %+v", sum)
	}
	// Everything the passes do not model survives: the model and the
	// request's other fields.
	if !bytes.HasPrefix(out, []byte(`{"model":"gpt-4o","messages":[`)) {
		t.Errorf("body starts %.40s", out)
	}
}

// dropUser is a broken pass: it drops the person's message.
type dropUser struct{}

func (dropUser) Name() string { return "drop-user" }

func (dropUser) Apply(st *State) Report {
	st.conv.Messages = st.conv.Messages[2:]
	return Report{Changed: 1}
}

func TestRewriteFallsBackOnViolation(t *testing.T) {
	body, _ := openAIAgent()
	in := []byte(body)
	c := newCompactor(testOptions.withDefaults(), []Pass{dropUser{}})
	out, sum, err := c.Rewrite("openai", in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, in) || sum.Changed {
		t.Error("a request that broke an invariant was not replaced by the original")
	}
	var rules []Rule
	for _, v := range sum.Violations {
		rules = append(rules, v.Rule)
	}
	if diff := cmp.Diff([]Rule{RuleUserMessageLost}, rules); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

func TestRunNeverMutates(t *testing.T) {
	for _, body := range []string{mustBody(openAIAgent()), thinkingAgent(11), textFormAgent()} {
		d := chat.OpenAI
		if strings.Contains(body, "claude") {
			d = chat.Anthropic
		}
		conv := decode(t, d, body)
		out, reps := New(testOptions).Run(string(d), conv)
		if !conv.Unchanged() || !bytes.Equal(encode(t, conv), []byte(body)) {
			t.Errorf("%s: Run changed its input", d)
		}
		if out.Unchanged() || len(reps) != len(PassNames()) {
			t.Errorf("%s: nothing compacted, %d reports", d, len(reps))
		}
	}
	// A conversation of another dialect comes back as it is.
	conv := decode(t, chat.OpenAI, mustBody(openAIAgent()))
	out, reps := New(testOptions).Run("anthropic", conv)
	if !out.Unchanged() || len(reps) != 1 || len(reps[0].Notes) == 0 {
		t.Errorf("dialect mismatch: unchanged %v, reports %+v", out.Unchanged(), reps)
	}
	if out, _ := New(testOptions).Run("openai", nil); out != nil {
		t.Error("Run(nil) returned a conversation")
	}
}

func mustBody(body, _ string) string { return body }

func TestOnly(t *testing.T) {
	c := New(Options{})
	var names []string
	for _, p := range c.Only(passClear, "no-such-pass").passes {
		names = append(names, p.Name())
	}
	if diff := cmp.Diff([]string{passClear, passThinking, passRepair}, names); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"dedup", "snip", "clear", "args", "lexical", "thinking", "trim", "repair"}, PassNames()); diff != "" {
		t.Errorf("pass order (-want +got):\n%s", diff)
	}
	if c.Options().Keep != DefaultKeep || !cmp.Equal(c.Only("clear").Options(), c.Options()) {
		t.Errorf("options %+v", c.Options())
	}
}

// TestConcurrentRewrite shares one Compactor between goroutines, as the
// proxy does; run with -race.
func TestConcurrentRewrite(t *testing.T) {
	c := New(testOptions)
	body, _ := openAIAgent()
	want, _, err := c.Rewrite("openai", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 20 {
				got, _, err := c.Rewrite("openai", []byte(body))
				if err == nil && !bytes.Equal(got, want) {
					err = errors.New("a concurrent Rewrite gave other bytes")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
