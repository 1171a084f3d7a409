package trimtree

import (
	"cmp"
	"slices"
)

// A selection is the items chosen before the final count, and how.
type selection struct {
	kept     []int // increasing
	strategy string
}

// choose picks the items to keep within capacity tokens, given each item's
// value and cost. Items that cost more than the whole capacity are never
// kept. When the values are flat, or no item with value fits, it keeps a
// prefix (StrategyOrder). Otherwise it maximises the total value of the
// items with value, exactly (StrategyDP) when there are at most maxDPItems
// of them and by value per token (StrategyGreedy) when there are more,
// then fills what room is left with the other items (see fill).
func choose(values []float64, costs []int, capacity int) selection {
	if flat(values) {
		return selection{prefix(costs, capacity), StrategyOrder}
	}
	var cand []int
	for i, v := range values {
		if v > 0 && costs[i] <= capacity {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return selection{prefix(costs, capacity), StrategyOrder}
	}
	var chosen []int
	strategy := StrategyDP
	if len(cand) <= maxDPItems {
		chosen = knapsack(cand, values, costs, capacity)
	} else {
		chosen, strategy = greedy(cand, values, costs, capacity), StrategyGreedy
	}
	return selection{fill(chosen, values, costs, capacity), strategy}
}

// prefix keeps items in source order while they fit, passing over items
// that alone cost more than capacity (they could never be shown) and
// stopping at the first other item that does not fit what is left, so the
// items kept are the first ones of the list the agent can see.
func prefix(costs []int, capacity int) []int {
	var kept []int
	used := 0
	for i, c := range costs {
		if c > capacity {
			continue
		}
		if used+c > capacity {
			break
		}
		kept = append(kept, i)
		used += c
	}
	return kept
}

// density is value per token.
func density(values []float64, costs []int, i int) float64 {
	return values[i] / float64(max(costs[i], 1))
}

// byDensity orders item indexes by decreasing value per token, then by
// source order.
func byDensity(values []float64, costs []int) func(a, b int) int {
	return func(a, b int) int {
		if c := cmp.Compare(density(values, costs, b), density(values, costs, a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
}

// greedy takes the candidates by decreasing value per token while they
// fit, and returns the single most valuable candidate instead when it is
// worth more than all of those together (which bounds the loss to half of
// the optimum).
func greedy(cand []int, values []float64, costs []int, capacity int) []int {
	order := slices.Clone(cand)
	slices.SortFunc(order, byDensity(values, costs))
	var kept []int
	used, total := 0, 0.0
	for _, i := range order {
		if used+costs[i] <= capacity {
			kept = append(kept, i)
			used += costs[i]
			total += values[i]
		}
	}
	best := slices.MaxFunc(cand, func(a, b int) int {
		return cmp.Or(cmp.Compare(values[a], values[b]), cmp.Compare(b, a))
	})
	if values[best] > total {
		return []int{best}
	}
	return kept
}

// fill adds to the chosen items what else fits: first the remaining items
// with value, by value per token (the DP's rounded costs or the greedy
// order may have left room for them), then the items without value in
// source order. It returns the kept indexes in increasing order.
func fill(chosen []int, values []float64, costs []int, capacity int) []int {
	in := make([]bool, len(costs))
	used := 0
	for _, i := range chosen {
		in[i] = true
		used += costs[i]
	}
	var rest []int
	for i := range costs {
		if !in[i] {
			rest = append(rest, i)
		}
	}
	slices.SortFunc(rest, byDensity(values, costs)) // zero values tie, in source order
	kept := slices.Clone(chosen)
	for _, i := range rest {
		if used+costs[i] <= capacity {
			kept = append(kept, i)
			used += costs[i]
		}
	}
	slices.Sort(kept)
	return kept
}

// shed drops kept items worth at least excess tokens by their costs, at
// least one: the last ones for a prefix, so that it stays one, and
// otherwise those of least value per token, later ones first among
// equals. It returns the remaining indexes in increasing order.
func shed(kept []int, values []float64, costs []int, excess int, isPrefix bool) []int {
	order := slices.Clone(kept)
	if isPrefix {
		slices.Reverse(order)
	} else {
		dens := byDensity(values, costs)
		slices.SortFunc(order, func(a, b int) int { return dens(b, a) })
	}
	dropped, n := 0, 0
	for n < len(order) && (n == 0 || dropped < excess) {
		dropped += costs[order[n]]
		n++
	}
	rest := order[n:]
	slices.Sort(rest)
	return rest
}
