package intent

import (
	"fmt"
	"math"
)

// A Section is one part of a context pack that competes for the token
// budget.
type Section uint8

const (
	Definitions Section = iota // cards for the ranked definitions: signature, doc, body
	Snippets                   // source excerpts around stack frames and matched lines
	Imports                    // the import blocks and dependencies of the files in play
	Tests                      // existing tests that exercise the symbols in play
	Callers                    // call sites and other references to the symbols in play
	NumSections                // the number of sections, for arrays indexed by Section
)

var sectionNames = [NumSections]string{
	Definitions: "definitions",
	Snippets:    "snippets",
	Imports:     "imports",
	Tests:       "tests",
	Callers:     "callers",
}

func (s Section) String() string {
	if s < NumSections {
		return sectionNames[s]
	}
	return fmt.Sprintf("section(%d)", s)
}

// A Profile is the share of a token budget each Section gets. The shares
// of a Profile from this package are non-negative and sum to 1.
type Profile [NumSections]float64

// profiles are the shares per kind, in the order Definitions, Snippets,
// Imports, Tests, Callers. Each row sums to 100.
//
// Definitions take most of every kind's budget: the definitions a task
// is about, in full, are what an agent reads first, and a section's
// share is only a cap (what a section leaves goes to the definitions).
// On the dev set of the localization benchmark the first profiles (bug
// fix 30/25/10/20/15) spent a third of an 8K pack on imports, tests and
// callers. Cutting the other sections' shares to a quarter of those took
// budgeted-context recall at 8K from 64.3 to 69.3% (to a half: 66.5);
// bug fix's definitions at 63, 66 and 70%: 69.3, 69.9, 70.6.
//
//   - Definition: the asked-for definition dominates; a little of its
//     surroundings helps explain it.
//   - Usage: the call sites are the answer beside the definitions.
//   - Implement: the definitions the new code builds on, and the imports it
//     will need.
//   - BugFix: the code at the frames (snippets) and the tests that show the
//     failure, with callers for how bad input gets there.
//   - Refactor: callers come next, since every caller has to change with a
//     rename or a move.
//   - TestWriting: the code under test, then the existing tests to
//     imitate; callers add nothing a test needs.
var profiles = [NumKinds][NumSections]float64{
	Definition:  {85, 7, 4, 2, 2},
	Usage:       {57, 11, 3, 6, 23},
	Implement:   {73, 11, 7, 5, 4},
	BugFix:      {70, 12, 4, 8, 6},
	Refactor:    {68, 7, 5, 7, 13},
	TestWriting: {73, 7, 2, 18, 0},
}

// ProfileFor returns the budget profile of kind k; an unknown kind gets
// the Definition profile.
func ProfileFor(k Kind) Profile {
	if k >= NumKinds {
		k = Definition
	}
	var p Profile
	for s, pct := range profiles[k] {
		p[s] = pct / 100
	}
	return p
}

// mix returns (1-t)·p + t·q.
func mix(p, q Profile, t float64) Profile {
	var m Profile
	for s := range m {
		m[s] = (1-t)*p[s] + t*q[s]
	}
	return m
}

// Split divides total tokens among the sections. has reports whether a
// section has anything to show; nil means every section does. The shares
// of sections with nothing to show go to the others in proportion to
// their own shares, and if every section that has something has a zero
// share, they split total equally. Negative, NaN and infinite shares count
// as zero.
//
// Rounding is by largest remainder: each section gets the floor of its
// exact share, and the tokens left over go one each to the sections with
// the largest fractional parts (ties to the earlier section). So when total
// is positive and some section has something to show, the results sum to
// exactly total; otherwise every result is zero. Sections with nothing to
// show always get zero.
func (p Profile) Split(total int, has func(Section) bool) [NumSections]int {
	var out [NumSections]int
	if total <= 0 {
		return out
	}
	var w [NumSections]float64
	var avail [NumSections]bool
	sum, n := 0.0, 0
	for s := range Section(NumSections) {
		if has != nil && !has(s) {
			continue
		}
		avail[s] = true
		n++
		if p[s] > 0 && !math.IsInf(p[s], 1) {
			w[s] = p[s]
			sum += w[s]
		}
	}
	if n == 0 {
		return out
	}
	if sum == 0 || math.IsInf(sum, 1) {
		sum = 0
		for s := range w {
			if avail[s] {
				w[s] = 1
				sum++
			}
		}
	}
	left := total
	var frac [NumSections]float64
	for s := range w {
		if !avail[s] {
			continue
		}
		q := float64(float64(total) * (w[s] / sum)) // float64(): no fused multiply-add, the same result everywhere
		f := math.Floor(q)
		if f >= float64(left) { // float rounding near huge totals
			out[s] = left
		} else {
			out[s] = int(f)
		}
		left -= out[s]
		frac[s] = q - f
	}
	for ; left > 0; left-- {
		best := -1
		for s := range frac {
			if avail[s] && w[s] > 0 && frac[s] >= 0 && (best < 0 || frac[s] > frac[best]) {
				best = s
			}
		}
		if best < 0 {
			// Every section has had its extra token; only float error on
			// a huge total gets here. The largest share takes the rest.
			best = argmax(w)
			out[best] += left
			break
		}
		out[best]++
		frac[best] = -1
	}
	return out
}

// argmax returns the index of the largest value, the first on ties.
func argmax(v [NumSections]float64) int {
	best := 0
	for i := range v {
		if v[i] > v[best] {
			best = i
		}
	}
	return best
}
