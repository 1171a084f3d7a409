package compact

// A Rewriter compacts one request body of dialect ("openai" or
// "anthropic") and returns the body to send. It sees every request of a
// conversation in order, the way a proxy would; a Rewriter that keeps
// state across requests (sticky decisions) must key it by content, since
// the benchmark replays many conversations through the same Rewriter, one
// after another.
type Rewriter func(dialect string, body []byte) ([]byte, error)

// A Validator checks a compacted body against the original and returns
// its invariant violations, described for people; none means valid. An
// error means it could not check (for instance, out does not decode), and
// counts as one violation.
type Validator func(dialect string, orig, out []byte) ([]string, error)

// A Variant is one way of compacting that the benchmark measures against
// the raw replay.
type Variant struct {
	Name    string
	Rewrite Rewriter
}

// DefaultVariants are the variants measured when none are configured:
// Identity, the control, and RollingMask(3), the cache trap.
func DefaultVariants() []Variant {
	return []Variant{Identity(), RollingMask(3)}
}

// Identity sends every body unchanged. Its ratios are 1 and its recall
// is 1 by construction; any other number is a bug in the harness.
func Identity() Variant {
	return Variant{Name: "identity", Rewrite: func(_ string, body []byte) ([]byte, error) { return body, nil }}
}
