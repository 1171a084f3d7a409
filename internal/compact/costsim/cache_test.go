package costsim

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// seg returns n token ids starting at first: distinct ranges make
// distinct segments.
func seg(first, n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = uint32(first + i)
	}
	return s
}

// splice returns a copy of s whose tokens from i on are replaced by ids
// no other segment in these tests uses.
func splice(s []uint32, i int) []uint32 {
	out := append([]uint32(nil), s...)
	for j := i; j < len(out); j++ {
		out[j] = uint32(1_000_000 + j)
	}
	return out
}

func req(segs ...[]uint32) Request { return Request{Segments: segs} }

func TestCacheHandComputed(t *testing.T) {
	a, b, c, d, e := seg(0, 1000), seg(10_000, 500), seg(20_000, 500), seg(30_000, 200), seg(40_000, 100)
	big := seg(50_000, 2000)
	b2 := splice(b, 200) // shares its first 200 tokens with b
	anthropic, openai := AnthropicPricing(), OpenAIPricing(0.5)
	tests := []struct {
		name string
		p    Pricing
		reqs []Request
		want []Usage
	}{
		{
			name: "anthropic/identical requests: write once, then read all",
			p:    anthropic,
			reqs: []Request{req(big), req(big)},
			want: []Usage{
				{Requests: 1, Input: 2000, CacheWrite: 2000, Cost: 2500},
				{Requests: 1, Input: 2000, CacheRead: 2000, Cost: 200},
			},
		},
		{
			name: "anthropic/appended only: read the previous request, write the new tail",
			p:    anthropic,
			reqs: []Request{req(big), req(big, b), req(big, b, e)},
			want: []Usage{
				{Requests: 1, Input: 2000, CacheWrite: 2000, Cost: 2500},
				{Requests: 1, Input: 2500, CacheRead: 2000, CacheWrite: 500, Cost: 200 + 625},
				{Requests: 1, Input: 2600, CacheRead: 2500, CacheWrite: 100, Cost: 250 + 125},
			},
		},
		{
			name: "anthropic/rewrite in the middle: no entry ends before it, so all is written again",
			p:    anthropic,
			reqs: []Request{req(a, b, c), req(a, b2, c, d), req(a, b2, c, d, e)},
			want: []Usage{
				{Requests: 1, Input: 2000, CacheWrite: 2000, Cost: 2500},
				{Requests: 1, Input: 2200, CacheWrite: 2200, Cost: 2750},
				{Requests: 1, Input: 2300, CacheRead: 2200, CacheWrite: 100, Cost: 220 + 125},
			},
		},
		{
			name: "anthropic/rewrite after an entry: read up to the entry",
			p:    anthropic,
			reqs: []Request{req(big), req(big, b, c), req(big, b2, c)},
			want: []Usage{
				{Requests: 1, Input: 2000, CacheWrite: 2000, Cost: 2500},
				{Requests: 1, Input: 3000, CacheRead: 2000, CacheWrite: 1000, Cost: 200 + 1250},
				{Requests: 1, Input: 3000, CacheRead: 2000, CacheWrite: 1000, Cost: 200 + 1250},
			},
		},
		{
			name: "anthropic/below the minimum prefix nothing is cached",
			p:    anthropic,
			reqs: []Request{req(a), req(a)},
			want: []Usage{
				{Requests: 1, Input: 1000, Cost: 1000},
				{Requests: 1, Input: 1000, Cost: 1000},
			},
		},
		{
			name: "openai/identical requests: read in 128-token steps past 1024",
			p:    openai,
			reqs: []Request{req(big), req(big)},
			want: []Usage{
				{Requests: 1, Input: 2000, Cost: 2000},
				{Requests: 1, Input: 2000, CacheRead: 1920, Cost: 80 + 960},
			},
		},
		{
			name: "openai/appended only",
			p:    openai,
			reqs: []Request{req(big), req(big, b)},
			want: []Usage{
				{Requests: 1, Input: 2000, Cost: 2000},
				{Requests: 1, Input: 2500, CacheRead: 1920, Cost: 580 + 960},
			},
		},
		{
			name: "openai/rewrite in the middle: the prefix runs into the rewritten message",
			p:    openai,
			reqs: []Request{req(a, b, c), req(a, b2, c, d)},
			want: []Usage{
				{Requests: 1, Input: 2000, Cost: 2000},
				// lcp = 1000 + 200 = 1200 → 1024 + 128 = 1152 cached
				{Requests: 1, Input: 2200, CacheRead: 1152, Cost: 1048 + 576},
			},
		},
		{
			name: "openai/the longest of several earlier branches wins",
			p:    openai,
			reqs: []Request{req(a, b), req(a, splice(b, 50)), req(a, splice(b, 400))},
			want: []Usage{
				{Requests: 1, Input: 1500, Cost: 1500},
				{Requests: 1, Input: 1500, CacheRead: 1024, Cost: 476 + 512},
				// shares 400 tokens of b with the first request: lcp 1400 → 1024 + 2·128
				{Requests: 1, Input: 1500, CacheRead: 1280, Cost: 220 + 640},
			},
		},
		{
			name: "openai/below the minimum prefix nothing is cached",
			p:    openai,
			reqs: []Request{req(a), req(a)},
			want: []Usage{
				{Requests: 1, Input: 1000, Cost: 1000},
				{Requests: 1, Input: 1000, Cost: 1000},
			},
		},
		{
			name: "empty request",
			p:    anthropic,
			reqs: []Request{req()},
			want: []Usage{{Requests: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			total, per, err := Simulate(tt.p, tt.reqs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, per); diff != "" {
				t.Errorf("per request (-want +got):\n%s", diff)
			}
			var want Usage
			for _, u := range tt.want {
				want.Add(u)
			}
			if diff := cmp.Diff(want, total); diff != "" {
				t.Errorf("total (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCacheTTL(t *testing.T) {
	big := seg(0, 2000)
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) Request { return Request{Segments: [][]uint32{big}, Time: t0.Add(d)} }
	tests := []struct {
		name string
		p    Pricing
		reqs []Request
		read []int
	}{
		{"anthropic/expired after 5 minutes unused", AnthropicPricing(), []Request{at(0), at(6 * time.Minute), at(10 * time.Minute)}, []int{0, 0, 2000}},
		{"anthropic/a read refreshes the TTL", AnthropicPricing(), []Request{at(0), at(4 * time.Minute), at(8 * time.Minute)}, []int{0, 2000, 2000}},
		{"openai/expired after 5 minutes unused", OpenAIPricing(0.5), []Request{at(0), at(6 * time.Minute), at(7 * time.Minute)}, []int{0, 0, 1920}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, per, err := Simulate(tt.p, tt.reqs)
			if err != nil {
				t.Fatal(err)
			}
			var read []int
			for _, u := range per {
				read = append(read, u.CacheRead)
			}
			if diff := cmp.Diff(tt.read, read); diff != "" {
				t.Errorf("cache reads (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSegmentBoundaries: a segment that grew is not the segment it was,
// because a message's end is a token of its own; the match stops at the
// old end.
func TestSegmentBoundaries(t *testing.T) {
	a, b := seg(0, 1100), seg(5000, 300)
	ab := append(append([]uint32(nil), a...), b...)
	_, per, err := Simulate(AnthropicPricing(), []Request{req(a), req(ab)})
	if err != nil {
		t.Fatal(err)
	}
	if per[1].CacheRead != 0 {
		t.Errorf("anthropic: read %d tokens of a request that only shares a partial segment; want 0", per[1].CacheRead)
	}
	_, per, err = Simulate(OpenAIPricing(0.5), []Request{req(a), req(ab)})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1024 + 0*128; per[1].CacheRead != want { // lcp 1100 → 1024
		t.Errorf("openai: read %d, want %d", per[1].CacheRead, want)
	}
}

func TestPricingValidate(t *testing.T) {
	bad := map[string]Pricing{
		"mode":     {Name: "x", Mode: Mode(7), TTL: time.Minute},
		"negative": {Name: "x", Read: -1, TTL: time.Minute},
		"min":      {Name: "x", MinPrefix: -1, TTL: time.Minute},
		"ttl":      {Name: "x"},
	}
	for name, p := range bad {
		if _, err := NewCache(p); err == nil {
			t.Errorf("%s: NewCache(%+v) succeeded, want an error", name, p)
		}
	}
	for _, p := range []Pricing{AnthropicPricing(), OpenAIPricing(0.5)} {
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
}

func TestUsage(t *testing.T) {
	u := Usage{Requests: 2, Input: 1000, CacheRead: 600, CacheWrite: 300, Cost: 100 + 60 + 375}
	if got := u.HitRatio(); got != 0.6 {
		t.Errorf("HitRatio = %g, want 0.6", got)
	}
	if got := (Usage{}).HitRatio(); got != 0 {
		t.Errorf("HitRatio of nothing = %g, want 0", got)
	}
}

// BenchmarkSimulate prices a 40-turn conversation that grows by an
// assistant message and a 2,000-token tool output per turn (~1.6M input
// tokens over all requests) under both pricings.
func BenchmarkSimulate(b *testing.B) {
	var reqs []Request
	segs := [][]uint32{seg(0, 3000)}
	for i := range 40 {
		segs = append(segs, seg(10_000+i*3000, 100), seg(11_000+i*3000, 2000))
		reqs = append(reqs, Request{Segments: append([][]uint32(nil), segs...)})
	}
	for b.Loop() {
		for _, p := range []Pricing{AnthropicPricing(), OpenAIPricing(0.5)} {
			if _, _, err := Simulate(p, reqs); err != nil {
				b.Fatal(err)
			}
		}
	}
}
