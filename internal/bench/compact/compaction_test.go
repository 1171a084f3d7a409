package compact

import (
	"regexp"
	"testing"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/compact/probe"
)

// TestCompactionVariants replays a real run through the compaction
// variants: the combined one sends fewer tokens, breaks nothing, and keeps
// every fact recoverable through its placeholders.
func TestCompactionVariants(t *testing.T) {
	ts := load(t, "adp_swe-gym_openhands_gpt4o_sample_raw.json", 5)[4:] // MONAI-3715: 30 requests
	vs := CompactionVariants(compact.Options{})
	if len(vs) != 1+len(compact.PassNames()) || vs[0].Name != "combined" || vs[1].Name != "only-dedup" {
		t.Fatalf("variants %v", vs)
	}
	rep, err := Run(t.Context(), ts, Options{
		Variants: vs,
		Validate: pairingValidator,
		Probe:    &probe.Options{Handle: regexp.MustCompile(compact.HandlePattern)},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := variant(t, rep, "combined")
	if c.TokensSentRatio >= 0.8 || c.CachedCostRatio >= 1 || *c.Violations != 0 || c.RewriteErrors != 0 || c.RecallProbe != 1 {
		t.Errorf("combined: %+v, errors %d", c.Metrics, c.RewriteErrors)
	}
	if rep.Primary != "combined" {
		t.Errorf("primary %s", rep.Primary)
	}
}

func TestCompactionRejectsWhatItCannotRead(t *testing.T) {
	v := Compaction("combined", compact.New(compact.Options{}))
	if _, err := v.Rewrite("openai", []byte(`{"messages":`)); err == nil {
		t.Error("a body that is not JSON was rewritten")
	}
	if _, err := v.Rewrite("gemini", []byte(`{"messages":[]}`)); err == nil {
		t.Error("an unknown dialect was rewritten")
	}
}
