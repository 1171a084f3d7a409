package compact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/probe"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

// DefaultOpenAIRead is the price of a cached input token relative to an
// uncached one at OpenAI, as for gpt-4o.
const DefaultOpenAIRead = 0.5

// Options configure Run. The zero value runs DefaultVariants without a
// validator.
type Options struct {
	Variants []Variant // nil means DefaultVariants
	Primary  string    // the variant the report's top-level numbers are of; empty means "combined" if there is one, else the first
	Validate Validator // nil: violations are not checked and reported as null
	Request  *traj.RequestOptions
	// OpenAIRead is OpenAI's cached-token price multiplier; 0 means
	// DefaultOpenAIRead.
	OpenAIRead float64
	Probe      *probe.Options
	Progress   io.Writer // a line per trajectory; nil for none
}

// Run replays every trajectory turn by turn (see the package
// documentation) raw and through each variant, and reports the
// variants against the raw replay.
func Run(ctx context.Context, ts []traj.Trajectory, opts Options) (*Report, error) {
	if len(ts) == 0 {
		return nil, errors.New("bench compact: no trajectories")
	}
	variants := opts.Variants
	if variants == nil {
		variants = DefaultVariants()
	}
	if err := checkVariants(variants); err != nil {
		return nil, err
	}
	primary, err := choosePrimary(variants, opts.Primary)
	if err != nil {
		return nil, err
	}
	if opts.OpenAIRead == 0 {
		opts.OpenAIRead = DefaultOpenAIRead
	}
	pricing := [2]costsim.Pricing{costsim.AnthropicPricing(), costsim.OpenAIPricing(opts.OpenAIRead)}
	for _, p := range pricing {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("bench compact: %w", err)
		}
	}
	enc, err := costsim.NewEncoder()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	acc := newAccumulator(variants, opts.Validate != nil)
	for i, t := range ts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := replay(t, variants, pricing, enc, opts)
		if err != nil {
			return nil, err
		}
		acc.add(r)
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "[%d/%d] %s\n", i+1, len(ts), r.progress())
		}
	}
	rep := acc.report(primary, opts.OpenAIRead)
	rep.ElapsedMS = ms(time.Since(start))
	return rep, nil
}

func checkVariants(vs []Variant) error {
	if len(vs) == 0 {
		return errors.New("bench compact: no variants")
	}
	seen := make(map[string]bool)
	for i, v := range vs {
		switch {
		case v.Name == "":
			return fmt.Errorf("bench compact: variant %d has no name", i)
		case v.Rewrite == nil:
			return fmt.Errorf("bench compact: variant %s has no Rewrite", v.Name)
		case seen[v.Name]:
			return fmt.Errorf("bench compact: two variants named %s", v.Name)
		}
		seen[v.Name] = true
	}
	return nil
}

func choosePrimary(vs []Variant, want string) (string, error) {
	if want == "" {
		want = "combined"
		for _, v := range vs {
			if v.Name == want {
				return want, nil
			}
		}
		return vs[0].Name, nil
	}
	for _, v := range vs {
		if v.Name == want {
			return want, nil
		}
	}
	return "", fmt.Errorf("bench compact: primary variant %q is not among the variants", want)
}

// trajectoryRun is the outcome of replaying one trajectory.
type trajectoryRun struct {
	t        traj.Trajectory
	requests int
	baseline usages
	variants []variantRun
}

// usages are the costs of one replay under both pricings.
type usages struct {
	Anthropic costsim.Usage `json:"anthropic"`
	OpenAI    costsim.Usage `json:"openai"`
}

type variantRun struct {
	name string
	usages
	violations    int
	rewriteErrors int
	probe         probe.Result
	rewrite       time.Duration
}

// replay runs one trajectory raw and through every variant.
func replay(t traj.Trajectory, variants []Variant, pricing [2]costsim.Pricing, enc *costsim.Encoder, opts Options) (*trajectoryRun, error) {
	var reqs []traj.Request
	for r, err := range traj.Requests(t, opts.Request) {
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, r)
	}
	facts, err := probe.Extract(t)
	if err != nil {
		return nil, err
	}
	seg := newSegmenter(enc)
	run := &trajectoryRun{t: t, requests: len(reqs)}
	raw := make([]costsim.Request, len(reqs))
	for i, r := range reqs {
		parts, err := traj.ParseRequest(r.Body)
		if err != nil {
			return nil, fmt.Errorf("%s: request %d: %w", t.Name, i, err)
		}
		if raw[i], err = seg.request(parts); err != nil {
			return nil, fmt.Errorf("%s: request %d: %w", t.Name, i, err)
		}
	}
	if run.baseline, err = simulate(pricing, raw); err != nil {
		return nil, err
	}
	for _, v := range variants {
		vr, err := replayVariant(t, reqs, facts, v, pricing, seg, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: variant %s: %w", t.Name, v.Name, err)
		}
		run.variants = append(run.variants, vr)
	}
	return run, nil
}

// replayVariant sends every request of t through v. A rewrite that fails,
// or whose output is not a request body, is counted and replaced by the
// original body, as the proxy forwards the original when compaction
// fails.
func replayVariant(t traj.Trajectory, reqs []traj.Request, facts []probe.Fact, v Variant, pricing [2]costsim.Pricing, seg *segmenter, opts Options) (variantRun, error) {
	vr := variantRun{name: v.Name}
	chk, err := probe.NewChecker(t.Dialect, facts, opts.Probe)
	if err != nil {
		return vr, err
	}
	sim := make([]costsim.Request, len(reqs))
	for i, r := range reqs {
		start := time.Now()
		out, err := v.Rewrite(t.Dialect, r.Body)
		vr.rewrite += time.Since(start)
		var parts traj.Parts
		if err == nil {
			parts, err = traj.ParseRequest(out)
		}
		if err != nil {
			vr.rewriteErrors++
			out = r.Body
			if parts, err = traj.ParseRequest(out); err != nil {
				return vr, err
			}
		}
		if opts.Validate != nil {
			vs, err := opts.Validate(t.Dialect, r.Body, out)
			vr.violations += len(vs)
			if err != nil {
				vr.violations++
			}
		}
		if sim[i], err = seg.request(parts); err != nil {
			return vr, fmt.Errorf("request %d: %w", i, err)
		}
		if err := chk.Check(r.Turn, parts, seg.text); err != nil {
			return vr, err
		}
	}
	vr.probe = chk.Result()
	vr.usages, err = simulate(pricing, sim)
	return vr, err
}

func simulate(pricing [2]costsim.Pricing, reqs []costsim.Request) (usages, error) {
	a, _, err := costsim.Simulate(pricing[0], reqs)
	if err != nil {
		return usages{}, err
	}
	o, _, err := costsim.Simulate(pricing[1], reqs)
	if err != nil {
		return usages{}, err
	}
	return usages{Anthropic: a, OpenAI: o}, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// progress is the one-line summary of a trajectory run.
func (r *trajectoryRun) progress() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d requests, %s raw tokens", r.t.Name, r.requests, thousands(r.baseline.Anthropic.Input))
	for _, v := range r.variants {
		fmt.Fprintf(&b, "; %s %.2f sent %.2f cost", v.name, ratio(v.Anthropic.Input, r.baseline.Anthropic.Input), ratioF(v.Anthropic.Cost, r.baseline.Anthropic.Cost))
	}
	return b.String()
}
