package tokens

import "github.com/winnowhq/winnow/internal/tokens/internal/vocabhash"

//go:generate go run ./internal/vocabgen -encoding o200k_base -prefix o200kVocab -o o200k_vocab.go
//go:generate go run ./internal/vocabgen -encoding cl100k_base -prefix cl100kVocab -o cl100k_vocab.go

// A vocab maps the bytes of a token to its rank. Its tables are string
// constants written by internal/vocabgen from tiktoken-go's vocabularies,
// so using one costs no start-up work: the strings are read-only data in
// the binary, paged in as lookups touch them.
//
// blob holds every token's bytes in rank order. offsets holds, by rank,
// where each token starts in blob, and blob's length last, each as four
// 6-bit digits (most significant first, digit d written as the byte
// ' '+d, so the constants are plain raw strings). table is an
// open-addressing hash table of 2^tableBits slots of four digits: 0 for
// an empty slot, else rank+1 in the low rankBits bits and the hash's low
// bits above them as a tag. A lookup hashes the bytes, starts at the slot
// named by the hash's top tableBits bits and probes linearly until an
// empty slot; a slot whose tag matches is compared byte for byte.
type vocab struct {
	tokens    int // number of tokens; ranks are 0 to tokens-1
	maxLen    int // bytes in the longest token
	rankBits  int
	tableBits int
	blob      string
	offsets   string
	table     string
}

// digits4 returns the value of the four digits at s[i:].
func digits4(s string, i int) int {
	s = s[i : i+4]
	return int(s[0]-' ')<<18 | int(s[1]-' ')<<12 | int(s[2]-' ')<<6 | int(s[3]-' ')
}

// token returns the bytes of the token of rank r.
func (v *vocab) token(r int) string {
	return v.blob[digits4(v.offsets, 4*r):digits4(v.offsets, 4*r+4)]
}

// rank returns the rank of the token whose bytes are piece, and whether
// there is one.
func (v *vocab) rank(piece string) (int, bool) {
	if len(piece) > v.maxLen {
		return 0, false
	}
	h := vocabhash.Sum(piece)
	mask := 1<<v.tableBits - 1
	tag := int(h) & (1<<(24-v.rankBits) - 1)
	rankMask := 1<<v.rankBits - 1
	for i := int(h>>(64-v.tableBits)) & mask; ; i = (i + 1) & mask {
		s := digits4(v.table, 4*i)
		if s == 0 {
			return 0, false
		}
		if s>>v.rankBits == tag {
			r := s&rankMask - 1
			if v.token(r) == piece {
				return r, true
			}
		}
	}
}
