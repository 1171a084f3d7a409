package tokens

import "math"

// Unlimited is a Limit with room for any text.
const Unlimited = math.MaxInt

// A Budget is a token allowance and the Counter that measures against it.
// Budgets are small values: pass them by value, and use a Meter to spend
// one.
type Budget struct {
	// Limit is the number of tokens allowed. A Limit of zero or less leaves
	// no room: only text that counts as zero tokens (the empty string) fits.
	Limit int
	// Counter counts tokens. Nil means exact o200k counts.
	Counter Counter
}

// Count returns the number of tokens in text by b's Counter.
func (b Budget) Count(text string) int {
	if b.Counter == nil {
		return defaultCounter().Count(text)
	}
	return b.Counter.Count(text)
}

// Fits reports whether n tokens fit in b: 0 <= n <= Limit.
func (b Budget) Fits(n int) bool {
	return n >= 0 && n <= max(b.Limit, 0)
}

// Meter returns a Meter that spends b from zero.
func (b Budget) Meter() *Meter {
	return &Meter{budget: b}
}

// A Meter spends a Budget: it accepts text while it fits and refuses the
// rest, so Used never exceeds the Limit. A Meter is not safe for concurrent
// use.
type Meter struct {
	budget Budget
	used   int
}

// Take counts text and, if it fits in what remains, adds it to the tokens
// used and reports true. Otherwise it reports false and changes nothing.
func (m *Meter) Take(text string) bool {
	return m.TakeN(m.budget.Count(text))
}

// TakeN adds n tokens if they fit in what remains and reports whether it
// did. A negative n never fits.
func (m *Meter) TakeN(n int) bool {
	if n < 0 || n > m.Remaining() {
		return false
	}
	m.used += n
	return true
}

// Used returns the number of tokens taken so far.
func (m *Meter) Used() int { return m.used }

// Remaining returns the number of tokens that still fit.
func (m *Meter) Remaining() int { return max(m.budget.Limit, 0) - m.used }
