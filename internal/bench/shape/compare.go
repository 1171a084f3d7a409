package shape

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
)

// sameJSON reports whether a and b are the same JSON: equal token
// streams as encoding/json reads them, with numbers as their literal
// text, so that key order and number text count. It is independent of
// the parser in internal/shape, so the report does not take the encoder's
// word for its own correctness.
func sameJSON(a, b string) bool {
	ta, err := jsonTokens(a)
	if err != nil {
		return false
	}
	tb, err := jsonTokens(b)
	if err != nil {
		return false
	}
	return reflect.DeepEqual(ta, tb)
}

// jsonTokens returns the token stream of s.
func jsonTokens(s string) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var toks []any
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return toks, nil
		}
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok)
	}
}
