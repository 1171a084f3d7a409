package trimtree

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bruteForce returns the largest total value of a subset of cand within
// capacity, trying every subset.
func bruteForce(cand []int, values []float64, costs []int, capacity int) float64 {
	best := 0.0
	for mask := 0; mask < 1<<len(cand); mask++ {
		cost, value := 0, 0.0
		for j, i := range cand {
			if mask&(1<<j) != 0 {
				cost += costs[i]
				value += values[i]
			}
		}
		if cost <= capacity && value > best {
			best = value
		}
	}
	return best
}

func totals(kept []int, values []float64, costs []int) (int, float64) {
	cost, value := 0, 0.0
	for _, i := range kept {
		cost += costs[i]
		value += values[i]
	}
	return cost, value
}

func randomKnapsack(r *rand.Rand, n, maxCost int) ([]int, []float64, []int) {
	values := make([]float64, n)
	costs := make([]int, n)
	var cand []int
	for i := range n {
		costs[i] = 1 + r.IntN(maxCost)
		if r.IntN(4) > 0 {
			values[i] = r.Float64()
			cand = append(cand, i)
		}
	}
	return cand, values, costs
}

func increasing(kept []int) bool {
	for j := 1; j < len(kept); j++ {
		if kept[j] <= kept[j-1] {
			return false
		}
	}
	return true
}

func TestKnapsackOptimal(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for trial := range 2000 {
		cand, values, costs := randomKnapsack(r, 1+r.IntN(14), 60)
		capacity := 1 + r.IntN(300)
		got := knapsack(cand, values, costs, capacity)
		cost, value := totals(got, values, costs)
		want := bruteForce(cand, values, costs, capacity)
		if cost > capacity || math.Abs(value-want) > 1e-9 || !increasing(got) {
			t.Fatalf("trial %d: knapsack kept %v (cost %d of %d, value %.6f), optimum %.6f",
				trial, got, cost, capacity, value, want)
		}
	}
}

// TestKnapsackScaled checks the DP on capacities above maxDPWidth, where
// costs are rounded up to units of several tokens: the answer still fits,
// and is worth at least the optimum of the rounded problem, which the
// brute force finds on the rounded costs.
func TestKnapsackScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for trial := range 300 {
		cand, values, costs := randomKnapsack(r, 1+r.IntN(14), 5000)
		capacity := maxDPWidth + 1 + r.IntN(30000)
		got := knapsack(cand, values, costs, capacity)
		cost, value := totals(got, values, costs)
		unit := (capacity + maxDPWidth - 1) / maxDPWidth
		rounded := make([]int, len(costs))
		for i, c := range costs {
			rounded[i] = (c + unit - 1) / unit
		}
		want := bruteForce(cand, values, rounded, capacity/unit)
		if cost > capacity || value < want-1e-9 || !increasing(got) {
			t.Fatalf("trial %d: kept %v (cost %d of %d, value %.6f), rounded optimum %.6f",
				trial, got, cost, capacity, value, want)
		}
	}
}

func TestGreedyWithinHalfOfOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for trial := range 2000 {
		cand, values, costs := randomKnapsack(r, 1+r.IntN(14), 60)
		capacity := 1 + r.IntN(300)
		var fits []int
		for _, i := range cand {
			if costs[i] <= capacity {
				fits = append(fits, i)
			}
		}
		if len(fits) == 0 {
			continue
		}
		got := greedy(fits, values, costs, capacity)
		cost, value := totals(got, values, costs)
		want := bruteForce(fits, values, costs, capacity)
		if cost > capacity || value < want/2-1e-9 {
			t.Fatalf("trial %d: greedy kept %v (cost %d of %d, value %.6f), optimum %.6f",
				trial, got, cost, capacity, value, want)
		}
	}
}

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		name     string
		values   []float64
		costs    []int
		capacity int
		want     selection
	}{
		{"flat: prefix", []float64{0, 0, 0, 0}, []int{3, 3, 3, 3}, 7, selection{[]int{0, 1}, StrategyOrder}},
		{"flat: prefix passes over items too large alone", []float64{1, 1, 1, 1}, []int{3, 9, 3, 3}, 7, selection{[]int{0, 2}, StrategyOrder}},
		{"flat: prefix stops at the first that does not fit", []float64{0, 0, 0}, []int{3, 5, 1}, 7, selection{[]int{0}, StrategyOrder}},
		{"valued items first, then fill in source order", []float64{0, 0, 0.5, 0, 0.5}, []int{2, 2, 3, 2, 3}, 8, selection{[]int{0, 2, 4}, StrategyDP}},
		{"value beats count", []float64{0.1, 0.1, 0.1, 0.9}, []int{2, 2, 2, 6}, 6, selection{[]int{3}, StrategyDP}},
		{"valued item too large: prefix", []float64{0, 1, 0}, []int{2, 20, 2}, 6, selection{[]int{0, 2}, StrategyOrder}},
		{"nothing fits", []float64{0.5, 0}, []int{10, 10}, 6, selection{nil, StrategyOrder}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := choose(tc.values, tc.costs, tc.capacity)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(selection{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestChooseGreedyAboveDPLimit(t *testing.T) {
	n := maxDPItems + 10
	values := make([]float64, n)
	costs := make([]int, n)
	for i := range n {
		values[i], costs[i] = float64(i%7+1)/10, 5+i%3
	}
	got := choose(values, costs, 100)
	if got.strategy != StrategyGreedy {
		t.Errorf("strategy %q with %d valued items, want %q", got.strategy, n, StrategyGreedy)
	}
	if cost, _ := totals(got.kept, values, costs); cost > 100 || !increasing(got.kept) {
		t.Errorf("kept %v, cost %d of 100", got.kept, cost)
	}
}

func TestShed(t *testing.T) {
	values := []float64{0.9, 0, 0.1, 0.5, 0}
	costs := []int{10, 10, 10, 10, 10}
	for _, tc := range []struct {
		name     string
		excess   int
		isPrefix bool
		want     []int
	}{
		{"least dense first, later among equals", 1, false, []int{0, 1, 2, 3}},
		{"as many as the excess", 15, false, []int{0, 2, 3}},
		{"prefix loses its tail", 15, true, []int{0, 1, 2}},
		{"all", 100, false, []int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := shed([]int{0, 1, 2, 3, 4}, values, costs, tc.excess, tc.isPrefix)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
