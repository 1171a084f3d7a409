package telemetry

import (
	"github.com/winnowhq/winnow/internal/modelid"
)

// A Price is what one model family costs, in US dollars per million tokens
// of each kind. CacheWrite is the 5-minute cache write; OpenAI charges no
// write premium, so its rows carry the input price there (the API reports
// no writes anyway).
type Price struct {
	Input      float64 `json:"input"`
	CacheWrite float64 `json:"cache_write"`
	CacheRead  float64 `json:"cache_read"`
	Output     float64 `json:"output"`
}

// cost is what u costs at p, in dollars.
func (p Price) cost(u Usage) float64 {
	return (float64(u.Input)*p.Input + float64(u.CacheWrite)*p.CacheWrite +
		float64(u.CacheRead)*p.CacheRead + float64(u.Output)*p.Output) / 1e6
}

// promptRate is what one input token of u cost on average at p, in dollars:
// the blend of full-price, cache-write and cache-read input that u billed.
func (p Price) promptRate(u Usage) float64 {
	n := u.Prompt()
	if n == 0 {
		return 0
	}
	return (float64(u.Input)*p.Input + float64(u.CacheWrite)*p.CacheWrite + float64(u.CacheRead)*p.CacheRead) / 1e6 / float64(n)
}

// prices lists the list prices of the model families the proxy sees, by the
// ids (after modelid.Normalize) each family answers to.
//
// Anthropic: https://platform.claude.com/docs/en/about-claude/pricing,
// "Model pricing" (read November 2026; the same numbers are on each model's
// overview page under platform.claude.com/docs/en/models/). A 5-minute cache
// write costs 1.25× the base input price and a cache hit 0.1× — except, per
// the page's footnotes, Claude Opus 5.5 and Sonnet 5.5 (0.05×; Sonnet 5.5's
// since 2026-10-07) and Fable 5.1 and Mythos 5.1 (0.025×). Claude Haiku 5.5
// is priced by prompt length (two tiers around 100,000 tokens) and is left
// out; so are the long-context surcharges of the older Sonnets (prompts over
// 200K tokens) and the inference_geo "us" uplift.
//
// OpenAI: https://developers.openai.com/api/docs/pricing, standard tier
// (read November 2026), and the model pages under
// developers.openai.com/api/docs/models/ (gpt-5-codex). Cached input is
// listed per model: 0.1× the input price for the GPT-5 family, 0.25× for
// gpt-4.1, 0.5× for gpt-4o. Long-context rates (GPT-5.5 prompts over 272K
// tokens) are not applied. Codex variants are listed only where OpenAI
// prices them: gpt-5.5-codex, which Codex CLI 0.169 uses, has no price of
// its own on the page and stays unpriced rather than borrowing gpt-5.5's.
//
// A model whose id is not here is reported as unpriced, never guessed.
var prices = []struct {
	ids []string
	Price
}{
	{[]string{"claude-fable-5-1", "claude-mythos-5-1"}, Price{10, 12.50, 0.25, 50}},
	{[]string{"claude-fable-5", "claude-mythos-5"}, Price{10, 12.50, 1, 50}},
	{[]string{"claude-opus-5-5"}, Price{4, 5, 0.20, 20}},
	{[]string{"claude-opus-5", "claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-opus-4-5"}, Price{5, 6.25, 0.50, 25}},
	{[]string{"claude-opus-4-1", "claude-opus-4", "claude-3-opus"}, Price{15, 18.75, 1.50, 75}},
	{[]string{"claude-sonnet-5-5"}, Price{2, 2.50, 0.10, 10}},
	{[]string{"claude-sonnet-5"}, Price{2, 2.50, 0.20, 10}},
	{[]string{"claude-sonnet-4-6", "claude-sonnet-4-5", "claude-sonnet-4", "claude-3-7-sonnet"}, Price{3, 3.75, 0.30, 15}},
	{[]string{"claude-haiku-4-5"}, Price{1, 1.25, 0.10, 5}},
	{[]string{"claude-3-5-haiku"}, Price{0.80, 1, 0.08, 4}},

	{[]string{"gpt-5.5"}, Price{5, 5, 0.50, 30}},
	{[]string{"gpt-5.4"}, Price{2.50, 2.50, 0.25, 15}},
	{[]string{"gpt-5.4-mini"}, Price{0.75, 0.75, 0.075, 4.50}},
	{[]string{"gpt-5.4-nano"}, Price{0.20, 0.20, 0.02, 1.25}},
	{[]string{"gpt-5.1", "gpt-5", "gpt-5-codex"}, Price{1.25, 1.25, 0.125, 10}},
	{[]string{"gpt-5-mini"}, Price{0.25, 0.25, 0.025, 2}},
	{[]string{"gpt-5-nano"}, Price{0.05, 0.05, 0.005, 0.40}},
	{[]string{"gpt-4.1"}, Price{2, 2, 0.50, 8}},
	{[]string{"gpt-4o"}, Price{2.50, 2.50, 1.25, 10}},
}

// PriceOf returns the list price of model, false when it has none here.
func PriceOf(model string) (Price, bool) {
	id := modelid.Normalize(model)
	for _, p := range prices {
		for _, want := range p.ids {
			if id == want {
				return p.Price, true
			}
		}
	}
	return Price{}, false
}
