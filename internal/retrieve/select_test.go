package retrieve

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// An item has a score that many share and a unique tie-break, as a file
// of a ranking has its path: the order is total.
type item struct {
	score float64
	id    int
}

func byScoreThenID(a, b item) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// randomItems returns up to 59 items in one of three orders, and the
// same items sorted by byScoreThenID.
func randomItems(rng *rand.Rand) (xs, sorted []item) {
	n := rng.IntN(60)
	xs = make([]item, n)
	for i := range xs {
		xs[i] = item{float64(rng.IntN(8)), i} // few scores: many ties
	}
	switch rng.IntN(3) {
	case 0:
		slices.SortFunc(xs, byScoreThenID)
	case 1:
		slices.SortFunc(xs, func(a, b item) int { return -byScoreThenID(a, b) })
	}
	if n > 0 && rng.IntN(2) == 0 {
		xs[rng.IntN(n)].score = math.NaN()
	}
	sorted = slices.Clone(xs)
	slices.SortFunc(sorted, byScoreThenID)
	return xs, sorted
}

// TestLeastSorted: the k least, sorted, are the first k of the whole
// sorted, for every k, in any input order.
func TestLeastSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		xs, want := randomItems(rng)
		for _, k := range []int{0, 1, 2, rng.IntN(len(xs) + 1), len(xs) - 1, len(xs), len(xs) + 5} {
			if k < 0 {
				continue
			}
			got := leastSorted(slices.Clone(xs), k, byScoreThenID)
			if diff := gocmp.Diff(want[:min(k, len(want))], got, gocmp.AllowUnexported(item{}), gocmp.Comparer(sameFloat)); diff != "" {
				t.Fatalf("leastSorted(%v, %d) (-want +got):\n%s", xs, k, diff)
			}
		}
	}
}

// TestAscending: ascending yields the whole sorted, and stops when told.
func TestAscending(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		xs, want := randomItems(rng)
		got := slices.Collect(ascending(slices.Clone(xs), byScoreThenID))
		if diff := gocmp.Diff(want, got, gocmp.AllowUnexported(item{}), gocmp.Comparer(sameFloat), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("ascending(%v) (-want +got):\n%s", xs, diff)
		}
		stop := rng.IntN(len(xs) + 1)
		var first []item
		for x := range ascending(slices.Clone(xs), byScoreThenID) {
			if len(first) == stop {
				break
			}
			first = append(first, x)
		}
		if diff := gocmp.Diff(want[:stop], first, gocmp.AllowUnexported(item{}), gocmp.Comparer(sameFloat), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("the first %d of ascending(%v) (-want +got):\n%s", stop, xs, diff)
		}
	}
}

// sameFloat compares floats by their bits, so that NaN equals NaN and
// -0 differs from +0.
func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// sameValue is sameFloat, but any NaN equals any other.
func sameValue(a, b float64) bool { return sameFloat(a, b) || math.IsNaN(a) && math.IsNaN(b) }

// TestNonZero: nonZero finds what a plain loop finds, -0 and NaN
// included, up to its limit.
func TestNonZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	values := []float64{0, math.Copysign(0, -1), 1, -2.5, math.NaN(), math.Inf(1), 5e-324}
	for range 500 {
		col := make([]float64, rng.IntN(40))
		for i := range col {
			if rng.IntN(3) == 0 {
				col[i] = values[rng.IntN(len(values))]
			}
		}
		var want []int32
		for i, v := range col {
			if v != 0 {
				want = append(want, int32(i))
			}
		}
		prefix := []int32{-1}
		limit := rng.IntN(len(col) + 2)
		got, ok := nonZero(col, limit, slices.Clone(prefix))
		if wantOK := len(want) <= limit; ok != wantOK {
			t.Fatalf("nonZero(%v, %d) reported %v, want %v", col, limit, ok, wantOK)
		}
		if !ok {
			want = nil
		}
		if diff := gocmp.Diff(append(prefix, want...), got); diff != "" {
			t.Fatalf("nonZero(%v, %d) (-want +got):\n%s", col, limit, diff)
		}
	}
}

// TestScaleMax: scaleMax divides every element by the maximum, to the
// bit, as a plain loop does; it leaves a column without a positive
// maximum alone.
func TestScaleMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	values := []float64{0, math.Copysign(0, -1), 1, 3, 0.1, -2.5, math.Inf(1)}
	for range 500 {
		xs := make([]float64, rng.IntN(40))
		for i := range xs {
			if rng.IntN(3) == 0 {
				xs[i] = values[rng.IntN(len(values))]
			}
		}
		if len(xs) > 0 && rng.IntN(8) == 0 {
			xs[rng.IntN(len(xs))] = math.NaN()
		}
		want := slices.Clone(xs)
		var m [4]float64 // as scaleMax takes it, four abreast
		for i, x := range want {
			m[i%4] = max(m[i%4], x)
		}
		if top := max(max(m[0], m[1]), max(m[2], m[3])); !(top <= 0) {
			for i := range want {
				want[i] /= top
			}
		}
		got := slices.Clone(xs)
		scaleMax(got)
		if diff := gocmp.Diff(want, got, gocmp.Comparer(sameValue)); diff != "" {
			t.Fatalf("scaleMax(%v) (-want +got):\n%s", xs, diff)
		}
	}
}
