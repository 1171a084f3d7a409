package trimtree

import "slices"

// Bounds of the exact selection. The table has one bit per candidate and
// unit of capacity, maxDPItems × (maxDPWidth+1) bits (33 KiB), and one
// value per unit of capacity.
const (
	maxDPItems = 64
	maxDPWidth = 4096
)

// knapsack solves the 0/1 knapsack over the candidates: the subset of
// largest total value whose costs sum to at most capacity. With a capacity
// above maxDPWidth tokens, costs are counted in units of
// ceil(capacity/maxDPWidth) tokens, rounded up, so every subset it returns
// fits in real tokens and it is exact when the unit is one token. It
// returns the chosen indexes in increasing order.
func knapsack(cand []int, values []float64, costs []int, capacity int) []int {
	sum := 0
	for _, i := range cand {
		sum += costs[i]
	}
	if sum <= capacity {
		return slices.Clone(cand)
	}
	unit := 1
	if capacity > maxDPWidth {
		unit = (capacity + maxDPWidth - 1) / maxDPWidth
	}
	width := capacity / unit
	words := width/64 + 1
	best := make([]float64, width+1)        // best[x]: most value within x units
	took := make([]uint64, len(cand)*words) // bit x of row j: candidate j is in best[x] after row j
	scaled := make([]int, len(cand))
	for j, i := range cand {
		c := (costs[i] + unit - 1) / unit
		scaled[j] = c
		row := took[j*words : (j+1)*words]
		for x := width; x >= c; x-- {
			if v := best[x-c] + values[i]; v > best[x] {
				best[x] = v
				row[x/64] |= 1 << (x % 64)
			}
		}
	}
	var chosen []int
	x := width
	for j := len(cand) - 1; j >= 0; j-- {
		if took[j*words+x/64]&(1<<(x%64)) != 0 {
			chosen = append(chosen, cand[j])
			x -= scaled[j]
		}
	}
	slices.Reverse(chosen)
	return chosen
}
