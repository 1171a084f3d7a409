package llmproxy

import (
	"context"
	"errors"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat/anthropic"
	"github.com/winnowhq/winnow/internal/compact"
)

// Compaction returns the Rewriter that compacts each request's history
// with c (see package compact): sticky, batched rewrites that keep the
// provider's prompt cache hitting, validated against the request as the
// client sent it. A request in an anthropic-version it does not know, one
// it cannot decode, and one whose compaction would break an invariant of
// the API are errors, so the proxy forwards the client's bytes and logs
// why.
//
// The Rewriter keeps a compact.Cache of recent requests (the defaults:
// 256 MiB, ten minutes), so that each request of a conversation costs
// only its new messages; the bodies it forwards are the same as without.
func Compaction(c *compact.Compactor) Rewriter {
	return CompactionCached(c, compact.NewCache(nil))
}

// CompactionCached is Compaction with the given cache; nil decodes and
// analyses every request in full. The cache keeps each request body it
// decoded (compact.Compactor.RewriteCached shares it rather than copying
// it), which is safe because the proxy never writes a request body after
// reading it, and Request.Body must not be modified by anyone.
func CompactionCached(c *compact.Compactor, cache *compact.Cache) Rewriter {
	client, server := c.WithServerEdits(false), c.WithServerEdits(true)
	return RewriterFunc(func(_ context.Context, req *Request) (*Rewrite, error) {
		if req.Dialect == DialectAnthropic {
			if err := anthropic.CheckVersion(req.Header.Get("anthropic-version")); err != nil {
				return nil, err
			}
		}
		c := client
		if req.ServerEdits {
			c = server
		}
		body, sum, err := c.RewriteCached(cache, req.Dialect, req.Body)
		if err != nil {
			return nil, err
		}
		if len(sum.Violations) > 0 {
			errs := make([]error, len(sum.Violations))
			for i, v := range sum.Violations {
				errs[i] = errors.New(v.String())
			}
			return nil, fmt.Errorf("compaction would break the API's rules, forwarding the original: %w", errors.Join(errs...))
		}
		rw := &Rewrite{TokensBefore: sum.TokensBefore, TokensAfter: sum.TokensAfter, Changed: sum.Changed, WellFormed: true}
		if sum.Changed {
			rw.Body = body
			if sum.ServerEdit != nil {
				rw.Beta = []string{compact.BetaContextManagement}
			}
			for _, r := range sum.Reports {
				if r.Changed > 0 {
					rw.Notes = append(rw.Notes, fmt.Sprintf("%s: %d changed, %d→%d tokens", r.Pass, r.Changed, r.TokensBefore, r.TokensAfter))
					rw.Passes = append(rw.Passes, PassTokens{Pass: r.Pass, Changed: r.Changed, Before: r.TokensBefore, After: r.TokensAfter})
				}
			}
		}
		return rw, nil
	})
}
