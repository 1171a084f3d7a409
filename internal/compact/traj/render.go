package traj

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Render returns the text of one part of a request (a message, a tool
// definition, a system prompt) as a model reads it: every key and scalar
// of the JSON value in document order, strings decoded, one per line.
// Providers render messages through a chat template rather than as JSON,
// so escapes ("\n", "\"") are not what the model sees; the keys stand in
// for the template's framing. cache_control members are left out: they
// mark cache breakpoints and are not part of the prompt, so moving one
// must not change the text.
func Render(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	b.Grow(len(raw))
	if err := renderValue(&b, dec); err != nil {
		return "", fmt.Errorf("render: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", fmt.Errorf("render: data after the value")
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

func renderValue(b *strings.Builder, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		isObject := v == '{'
		for dec.More() {
			if isObject {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				if k == "cache_control" {
					if err := skipValue(dec); err != nil {
						return err
					}
					continue
				}
				b.WriteString(k.(string))
				b.WriteByte('\n')
			}
			if err := renderValue(b, dec); err != nil {
				return err
			}
		}
		_, err := dec.Token() // the closing delimiter
		return err
	case string:
		b.WriteString(v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		fmt.Fprint(b, v)
	case nil:
		b.WriteString("null")
	}
	b.WriteByte('\n')
	return nil
}

func skipValue(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}
