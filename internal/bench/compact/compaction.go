package compact

import (
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/compact"
)

// Compaction returns a Variant that rewrites each body with c, the way
// the proxy does (compact.Compactor.Rewrite). A body c could not compact
// validly comes back as an error, so the benchmark counts it among the
// rewrite errors and sends the original body, as the proxy would: a
// variant cannot hide a violation by falling back.
func Compaction(name string, c *compact.Compactor) Variant {
	return Variant{
		Name: name,
		Rewrite: func(dialect string, body []byte) ([]byte, error) {
			out, sum, err := c.Rewrite(dialect, body)
			if err != nil {
				return nil, err
			}
			if len(sum.Violations) > 0 {
				var vs []string
				for _, v := range sum.Violations {
					vs = append(vs, v.String())
				}
				return nil, fmt.Errorf("compaction broke %d invariants: %s", len(vs), strings.Join(vs, "; "))
			}
			return out, nil
		},
	}
}

// CompactionVariants returns the compaction variants with opts:
// "combined", every pass in order, and "only-<pass>" for each pass alone
// (with the thinking and repair passes, which always run).
func CompactionVariants(opts compact.Options) []Variant {
	c := compact.New(opts)
	vs := []Variant{Compaction("combined", c)}
	for _, name := range compact.PassNames() {
		vs = append(vs, Compaction("only-"+name, c.Only(name)))
	}
	return vs
}
