package tokens

import "unicode/utf8"

// An encoder is tiktoken's encode_ordinary for one encoding: the
// pre-tokenizer's pieces (split.go), each merged by BPE over the
// vocabulary's ranks (bpe.go). It holds no state and needs no set-up.
type encoder struct {
	vocab *vocab
	piece func(s string, i int) int // end of the piece at i, or -1
}

var (
	o200kEncoder  = &encoder{vocab: &o200kVocab, piece: o200kPiece}
	cl100kEncoder = &encoder{vocab: &cl100kVocab, piece: cl100kPiece}
)

// valid returns text with each byte that is not part of a valid UTF-8
// sequence replaced by U+FFFD, as tiktoken-go's regexp engine sees it
// (it matches on []rune(text)).
func valid(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	return string([]rune(text))
}

// pieces calls yield with each piece of text, which must be valid UTF-8.
func (e *encoder) pieces(text string, yield func(string)) {
	for i := 0; i < len(text); {
		end := e.piece(text, i)
		if end < 0 { // no branch matched: the regexp would move on a rune
			_, n := utf8.DecodeRuneInString(text[i:])
			i += n
			continue
		}
		yield(text[i:end])
		i = end
	}
}

// count returns the number of tokens in text.
func (e *encoder) count(text string) int {
	n := 0
	e.pieces(valid(text), func(p string) {
		n += e.vocab.countPiece(p)
	})
	return n
}

// encode returns the ranks (token ids) of text's tokens, an empty slice
// (not nil) for none.
func (e *encoder) encode(text string) []uint {
	ids := []uint{}
	e.pieces(valid(text), func(p string) {
		ids = e.vocab.appendPieceRanks(ids, p)
	})
	return ids
}
