package intent

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestProfilesSumToOne(t *testing.T) {
	for k := range NumKinds {
		sum := 0.0
		for _, share := range ProfileFor(k) {
			if share < 0 {
				t.Errorf("%v: negative share %v", k, share)
			}
			sum += share
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%v: shares sum to %v, want 1", k, sum)
		}
	}
	if got, want := ProfileFor(Kind(99)), ProfileFor(Definition); got != want {
		t.Errorf("unknown kind: %v, want the Definition profile %v", got, want)
	}
}

// TestProfilesLeadWithDefinitions: definitions take more than half of
// every kind's budget, and every other section with a share keeps one
// (a bug fix still shows its frames, tests and callers).
func TestProfilesLeadWithDefinitions(t *testing.T) {
	for k := range NumKinds {
		p := ProfileFor(k)
		if p[Definitions] <= 0.5 {
			t.Errorf("%v: definitions get %.2f of the budget, want more than half", k, p[Definitions])
		}
	}
	bug := ProfileFor(BugFix)
	for _, s := range []Section{Snippets, Imports, Tests, Callers} {
		if bug[s] <= 0 {
			t.Errorf("bug_fix: %v get no share", s)
		}
	}
}

// only returns a has function that reports true for the given sections.
func only(ss ...Section) func(Section) bool {
	return func(s Section) bool {
		for _, x := range ss {
			if x == s {
				return true
			}
		}
		return false
	}
}

func TestSplit(t *testing.T) {
	bug := Profile{0.30, 0.25, 0.10, 0.20, 0.15}
	testing_ := Profile{0.40, 0.15, 0.05, 0.40, 0}
	tests := []struct {
		name    string
		profile Profile
		total   int
		has     func(Section) bool
		want    [NumSections]int
	}{
		{"all available", bug, 1000, nil, [NumSections]int{300, 250, 100, 200, 150}},
		{"all available, explicit", bug, 1000, only(Definitions, Snippets, Imports, Tests, Callers), [NumSections]int{300, 250, 100, 200, 150}},
		{"no tests: their 20% spread over the rest", bug, 1000, only(Definitions, Snippets, Imports, Callers),
			// 300/800, 250/800, 100/800, 150/800 of 1000
			[NumSections]int{375, 313, 125, 0, 187}},
		{"one section takes everything", bug, 777, only(Callers), [NumSections]int{0, 0, 0, 0, 777}},
		{"only a zero-share section: it takes everything", testing_, 500, only(Callers), [NumSections]int{0, 0, 0, 0, 500}},
		{"zero-share section stays zero beside others", testing_, 500, only(Tests, Callers), [NumSections]int{0, 0, 0, 500, 0}},
		{"nothing available", bug, 1000, only(), [NumSections]int{}},
		{"zero total", bug, 0, nil, [NumSections]int{}},
		{"negative total", bug, -5, nil, [NumSections]int{}},
		{"largest remainders get the leftover tokens", bug, 7,
			// exact 2.1, 1.75, 0.7, 1.4, 1.05: floors 2+1+0+1+1 = 5, the
			// two left go to .75 (snippets) and .7 (imports)
			nil, [NumSections]int{2, 2, 1, 1, 1}},
		{"one token", bug, 1, nil, [NumSections]int{1, 0, 0, 0, 0}},
		{"all-zero profile splits equally", Profile{}, 10, nil, [NumSections]int{2, 2, 2, 2, 2}},
		{"negative and NaN shares count as zero", Profile{-1, math.NaN(), 1, 0, 1}, 10, nil, [NumSections]int{0, 0, 5, 0, 5}},
		{"infinite share", Profile{math.Inf(1), 1, 0, 0, 0}, 10, nil, [NumSections]int{0, 10, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.profile.Split(tt.total, tt.has)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Split(%d) (-want +got):\n%s", tt.total, diff)
			}
			checkSplit(t, tt.profile, tt.total, tt.has, got)
		})
	}
}

// TestSplitExtremes checks the invariants where float64 cannot hold total
// exactly.
func TestSplitExtremes(t *testing.T) {
	for _, total := range []int{math.MaxInt, math.MaxInt - 1, 1<<53 + 1, math.MaxInt32} {
		for k := range NumKinds {
			p := ProfileFor(k)
			checkSplit(t, p, total, nil, p.Split(total, nil))
			checkSplit(t, p, total, only(Tests, Callers), p.Split(total, only(Tests, Callers)))
		}
	}
}

// checkSplit checks the invariants of a Split: no negative share, nothing
// for a section with nothing to show, and a sum of exactly total when
// total is positive and some section has something to show, else zero.
func checkSplit(t *testing.T, p Profile, total int, has func(Section) bool, got [NumSections]int) {
	t.Helper()
	sum, any := 0, false
	for s, n := range got {
		avail := has == nil || has(Section(s))
		any = any || avail
		if n < 0 || !avail && n != 0 {
			t.Errorf("Split(%v, %d): %v gets %d (available %v)", p, total, Section(s), n, avail)
		}
		if total > 0 && n > total-sum {
			t.Fatalf("Split(%v, %d) = %v: sum overflows total", p, total, got)
		}
		sum += n
	}
	want := 0
	if total > 0 && any {
		want = total
	}
	if sum != want {
		t.Errorf("Split(%v, %d) = %v: sum %d, want %d", p, total, got, sum, want)
	}
}

// FuzzSplit checks the invariants of Split for arbitrary totals, section
// masks and profiles.
func FuzzSplit(f *testing.F) {
	f.Add(1000, uint8(0b11111), 0.3, 0.25, 0.1, 0.2, 0.15)
	f.Add(7, uint8(0b01011), 1.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(math.MaxInt, uint8(0b10000), 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(-3, uint8(0), 0.5, 0.5, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, total int, mask uint8, a, b, c, d, e float64) {
		p := Profile{a, b, c, d, e}
		has := func(s Section) bool { return mask&(1<<s) != 0 }
		checkSplit(t, p, total, has, p.Split(total, has))
	})
}

func TestSectionNames(t *testing.T) {
	seen := map[string]bool{}
	for s := range NumSections {
		if seen[s.String()] {
			t.Errorf("two sections are called %q", s)
		}
		seen[s.String()] = true
	}
	if got := Section(9).String(); got != "section(9)" {
		t.Errorf("unknown section prints as %q", got)
	}
}
