package gateway

import "time"

// Defaults of Backoff.
const (
	DefaultBackoffBase   = time.Second
	DefaultBackoffMax    = time.Minute
	DefaultBackoffJitter = 0.2
)

// Backoff is the restart schedule of an upstream that died or could not connect: the n-th
// consecutive attempt waits Base·2^(n-1), at most Max, spread by up to ±Jitter of itself so
// that upstreams that died together do not restart in lockstep. A session that stayed up for
// Max or longer starts the count again. Zero fields mean their defaults.
type Backoff struct {
	Base   time.Duration // the first wait; default DefaultBackoffBase
	Max    time.Duration // the longest wait; default DefaultBackoffMax
	Jitter float64       // a fraction in (0, 1); default DefaultBackoffJitter
}

func (b Backoff) withDefaults() Backoff {
	if b.Base <= 0 {
		b.Base = DefaultBackoffBase
	}
	if b.Max <= 0 {
		b.Max = DefaultBackoffMax
	}
	if b.Max < b.Base {
		b.Max = b.Base
	}
	if b.Jitter <= 0 || b.Jitter >= 1 {
		b.Jitter = DefaultBackoffJitter
	}
	return b
}

// Delay returns the wait before the attempt-th consecutive restart (1 for the first), with
// r, a number in [0, 1), choosing the jitter: 0.5 means none.
func (b Backoff) Delay(attempt int, r float64) time.Duration {
	b = b.withDefaults()
	d := b.Max
	if attempt < 1 {
		attempt = 1
	}
	if attempt <= 32 {
		if exp := b.Base << (attempt - 1); exp > 0 && exp < b.Max {
			d = exp
		}
	}
	return d + time.Duration(float64(d)*b.Jitter*(2*r-1))
}
