package shape

import (
	"fmt"
	"unicode/utf8"
)

// EncoderCompact names the json_compact encoder: JSON without whitespace, members in
// their order and numbers as written. Strings are re-escaped minimally
// (see appendQuoted): "\u00e9" becomes "é", which is the same string.
const EncoderCompact = "json_compact"

// encodeCompact writes v as compact JSON.
func encodeCompact(v *value) (string, bool) {
	return string(appendCompact(make([]byte, 0, compactLen(v)), v)), true
}

// decodeCompact parses JSON.
func decodeCompact(text string) (value, error) {
	if !utf8.ValidString(text) {
		return value{}, fmt.Errorf("json: not valid UTF-8")
	}
	v, inexact, err := parseJSON(text)
	if err == nil && inexact {
		err = fmt.Errorf("json: unpaired surrogate escape")
	}
	return v, err
}
