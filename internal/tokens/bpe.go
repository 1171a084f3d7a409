package tokens

// Byte-pair encoding, as tiktoken does it: a piece starts as its single
// bytes (each a token in both vocabularies), and the adjacent pair of
// parts whose concatenation is the token of lowest rank merges, the
// leftmost such pair on a tie, until no adjacent pair is a token. A piece
// that is itself a token is one token without merging.
//
// Short pieces merge by scanning their parts for the lowest rank after
// each merge, O(n²) but with small arrays on the stack; pieces of
// heapFrom bytes or more (long runs of letters in base64, of spaces or of
// dashes) keep their candidate pairs in a heap, O(n log n). Both give the
// same parts.

// noRank marks a boundary whose part does not merge with the next.
const noRank = 1<<31 - 1

// heapFrom is the piece length from which merges use a heap.
const heapFrom = 128

// appendPieceRanks appends the ranks (token ids) of the tokens piece
// encodes to dst.
func (v *vocab) appendPieceRanks(dst []uint, piece string) []uint {
	if r, ok := v.rank(piece); ok {
		return append(dst, uint(r))
	}
	var buf [heapFrom]int32
	bounds := v.merge(piece, buf[:0])
	for i := 0; i+1 < len(bounds); i++ {
		r, _ := v.rank(piece[bounds[i]:bounds[i+1]])
		dst = append(dst, uint(r))
	}
	return dst
}

// countPiece returns the number of tokens piece encodes to.
func (v *vocab) countPiece(piece string) int {
	if len(piece) == 1 {
		return 1
	}
	if _, ok := v.rank(piece); ok {
		return 1
	}
	var buf [heapFrom]int32
	return len(v.merge(piece, buf[:0])) - 1
}

// merge returns the boundaries of the parts piece merges into, by
// mergeScan for short pieces (with buf as scratch space) and by mergeHeap
// for long ones.
func (v *vocab) merge(piece string, buf []int32) []int32 {
	if len(piece) < heapFrom {
		return v.mergeScan(piece, buf)
	}
	return v.mergeHeap(piece)
}

// pairRank returns the rank of piece[a:c], or noRank if it is no token.
func (v *vocab) pairRank(piece string, a, c int32) int32 {
	if r, ok := v.rank(piece[a:c]); ok {
		return int32(r)
	}
	return noRank
}

// mergeScan returns the boundaries of the parts piece merges into: the
// offsets where parts start, and len(piece). bounds is scratch space.
func (v *vocab) mergeScan(piece string, bounds []int32) []int32 {
	n := len(piece)
	var rbuf [heapFrom]int32
	ranks := rbuf[:0] // ranks[i]: rank of merging part i with part i+1
	for i := 0; i <= n; i++ {
		bounds = append(bounds, int32(i))
	}
	for i := 0; i+1 < n; i++ {
		ranks = append(ranks, v.pairRank(piece, int32(i), int32(i+2)))
	}
	for len(ranks) > 0 {
		best, at := int32(noRank), -1
		for i, r := range ranks {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		// Part at absorbs part at+1: drop boundary at+1 and its rank.
		bounds = append(bounds[:at+1], bounds[at+2:]...)
		ranks = append(ranks[:at], ranks[at+1:]...)
		if at < len(ranks) {
			ranks[at] = v.pairRank(piece, bounds[at], bounds[at+2])
		}
		if at > 0 {
			ranks[at-1] = v.pairRank(piece, bounds[at-1], bounds[at+1])
		}
	}
	return bounds
}

// A mergeNode is a part of a piece being merged by mergeHeap: parts form
// a doubly linked list by their start offsets, and rank is that of
// merging the part with the next.
type mergeNode struct {
	prev, next int32
	rank       int32
}

// A mergeCand is a pair that may merge: the part starting at start with
// the next, whose concatenation had rank rank when it was pushed.
type mergeCand struct {
	rank, start int32
}

// mergeHeap returns the same boundaries as mergeScan, keeping candidate
// pairs in a min-heap ordered by rank and then start. A candidate whose
// part has since changed is stale: its node's rank no longer equals it.
func (v *vocab) mergeHeap(piece string) []int32 {
	n := int32(len(piece))
	nodes := make([]mergeNode, n+1) // node n is the end sentinel
	for i := range nodes {
		nodes[i] = mergeNode{prev: int32(i) - 1, next: int32(i) + 1, rank: noRank}
	}
	nodes[n].next = -1
	rankAt := func(i int32) int32 {
		j := nodes[i].next
		if j < 0 || j == n {
			return noRank
		}
		return v.pairRank(piece, i, nodes[j].next)
	}
	h := make(candHeap, 0, n)
	for i := int32(0); i+1 < n; i++ {
		if r := rankAt(i); r != noRank {
			nodes[i].rank = r
			h = append(h, mergeCand{r, i})
		}
	}
	h.init()
	for len(h) > 0 {
		top := h.pop()
		i := top.start
		if nodes[i].rank != top.rank {
			continue
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = noRank
		nodes[i].next = k
		nodes[k].prev = i
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			nodes[b].rank = rankAt(b)
			if nodes[b].rank != noRank {
				h.push(mergeCand{nodes[b].rank, b})
			}
		}
	}
	var bounds []int32
	for i := int32(0); i >= 0; i = nodes[i].next {
		bounds = append(bounds, i)
	}
	return bounds
}

// candHeap is a binary min-heap of merge candidates by rank, then start.
type candHeap []mergeCand

func (h candHeap) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].start < h[b].start
}

func (h candHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *candHeap) push(c mergeCand) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *candHeap) pop() mergeCand {
	s := *h
	top := s[0]
	s[0] = s[len(s)-1]
	*h = s[:len(s)-1]
	h.down(0)
	return top
}

func (h candHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
