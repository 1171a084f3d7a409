// Package vocabhash is the hash of package tokens' generated vocabulary
// tables, shared by the generator (internal/vocabgen), which lays the
// tables out by it, and the lookups, which probe them by it. It lives
// apart from package tokens so that the generator builds even when the
// generated files do not.
package vocabhash

// Sum is FNV-1a over the bytes of s with a final mix, so that both its
// top bits (a table's slot) and its low bits (the slot's tag) depend on
// every byte.
func Sum(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 32
	return h
}
