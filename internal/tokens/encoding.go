package tokens

import (
	"fmt"
	"strings"
)

// An Encoding names a byte-pair encoding vocabulary.
type Encoding string

const (
	// O200k is the vocabulary of gpt-4o, gpt-4.1, gpt-5 and the o-series
	// models, and winnow's stand-in for Claude (see ForModel).
	O200k Encoding = "o200k_base"
	// CL100k is the vocabulary of gpt-4, gpt-3.5-turbo and the
	// text-embedding-3 models.
	CL100k Encoding = "cl100k_base"
)

// ParseEncoding returns the Encoding named s: "o200k_base" or "cl100k_base",
// or the short forms "o200k" and "cl100k". Case and surrounding spaces are
// ignored.
func ParseEncoding(s string) (Encoding, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "o200k_base", "o200k":
		return O200k, nil
	case "cl100k_base", "cl100k":
		return CL100k, nil
	}
	return "", fmt.Errorf("unknown token encoding %q: want o200k_base (o200k) or cl100k_base (cl100k)", s)
}

// modelPrefixes maps model-name prefixes to encodings. The first match wins,
// so the o200k gpt-4 variants come before the cl100k "gpt-4" catch-all.
var modelPrefixes = []struct {
	prefix string
	enc    Encoding
}{
	{"gpt-4o", O200k},
	{"chatgpt-4o", O200k},
	{"gpt-4.1", O200k},
	{"gpt-4.5", O200k},
	{"gpt-4", CL100k}, // gpt-4, gpt-4-turbo, gpt-4-32k, dated snapshots
	{"gpt-3.5", CL100k},
	{"gpt-35", CL100k}, // Azure's spelling
	{"text-embedding-3", CL100k},
	{"text-embedding-ada-002", CL100k},
	{"gpt-5", O200k},
	{"gpt-oss", O200k},
	{"o1", O200k},
	{"o3", O200k},
	{"o4", O200k},
	{"claude", O200k}, // a proxy: Anthropic's tokenizer is not public
}

// ForModel returns the encoding that counts tokens for model, matched by
// name prefix after lower-casing and dropping a provider prefix
// ("openai/gpt-4o", "anthropic/claude-sonnet-4") or a fine-tune marker
// ("ft:gpt-4o-mini:acme::id").
//
//   - gpt-4o, gpt-4.1, gpt-4.5, gpt-5*, gpt-oss and o1/o3/o4*: O200k.
//   - gpt-4 (other than the above), gpt-3.5-turbo, text-embedding-3-* and
//     text-embedding-ada-002: CL100k.
//   - claude-*: O200k, as a proxy. Anthropic's tokenizer is not public, so
//     counts for Claude models are o200k counts, not what Anthropic bills.
//     Treat them as an approximation and leave headroom in budgets meant for
//     a Claude context window.
//   - anything else: O200k.
func ForModel(model string) Encoding {
	m := strings.ToLower(strings.TrimSpace(model))
	m = strings.TrimPrefix(m, "ft:")
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	for _, p := range modelPrefixes {
		if strings.HasPrefix(m, p.prefix) {
			return p.enc
		}
	}
	return O200k
}
