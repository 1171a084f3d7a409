package shape

import (
	"fmt"
	"unicode/utf8"
)

// EncoderCompact names the json_compact encoder: JSON without whitespace, members in
// their order and numbers as written. Strings are re-escaped minimally
// (see appendQuoted): "\u00e9" becomes "é", which is the same string.
const EncoderCompact = "json_compact"

// encodeCompact writes value node i as compact JSON.
func encodeCompact(t *tape, i int) (string, bool) {
	dst, _ := t.appendValue(make([]byte, 0, sizeHint(t, i)), i)
	return bytesString(dst), true
}

// decodeCompact parses JSON onto t.
func (t *tape) decodeCompact(text string) error {
	if !utf8.ValidString(text) {
		return fmt.Errorf("json: not valid UTF-8")
	}
	inexact, err := t.parse(text)
	if err == nil && inexact {
		err = fmt.Errorf("json: unpaired surrogate escape")
	}
	return err
}
