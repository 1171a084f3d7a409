package retrieve

import (
	"iter"
	"slices"
)

// Partial selection: a ranking keeps its best few hundred of thousands
// of candidates, and a pack reads its related uses only until its
// sections are full, so neither sorts the whole.

// leastSorted returns the k least of xs by cmp, sorted: xs[:k] sorted
// as slices.SortFunc would leave them. cmp must be a strict total order
// (no two items compare equal), which makes the k least one set
// whichever way they are found. It reorders xs.
func leastSorted[T any](xs []T, k int, cmp func(a, b T) int) []T {
	if k >= len(xs) {
		slices.SortFunc(xs, cmp)
		return xs
	}
	if k <= 0 {
		return xs[:0]
	}
	// xs[:k] is a heap with the greatest of the k least so far on top;
	// an item less than it takes its place.
	h := xs[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(h, i, cmp, 1)
	}
	for i := k; i < len(xs); i++ {
		if cmp(xs[i], h[0]) < 0 {
			h[0], xs[i] = xs[i], h[0]
			siftDown(h, 0, cmp, 1)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}

// ascending yields xs in order by cmp, a strict total order, sorting
// only as far as it is read: a heap of them all, popped. It reorders xs.
func ascending[T any](xs []T, cmp func(a, b T) int) iter.Seq[T] {
	return func(yield func(T) bool) {
		h := xs
		for i := len(h)/2 - 1; i >= 0; i-- {
			siftDown(h, i, cmp, -1)
		}
		for len(h) > 0 {
			if !yield(h[0]) {
				return
			}
			last := len(h) - 1
			h[0], h[last] = h[last], h[0]
			h = h[:last]
			siftDown(h, 0, cmp, -1)
		}
	}
}

// siftDown restores the heap h below i: with sign 1 the greatest item
// by cmp is on top, with -1 the least.
func siftDown[T any](h []T, i int, cmp func(a, b T) int, sign int) {
	for {
		l, top := 2*i+1, i
		if l < len(h) && sign*cmp(h[l], h[top]) > 0 {
			top = l
		}
		if l+1 < len(h) && sign*cmp(h[l+1], h[top]) > 0 {
			top = l + 1
		}
		if top == i {
			return
		}
		h[i], h[top] = h[top], h[i]
		i = top
	}
}
