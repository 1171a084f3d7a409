package traj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// dropNulls returns raw as compact JSON without the object members whose
// value is null, recursively, keeping the order of the rest. Datasets
// exported through columnar formats give every message every field of
// every other message, as null ("tool_calls": null on a user message,
// "enum": null in a tool schema); APIs reject most of those.
func dropNulls(raw []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	out, err := appendValue(nil, dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the value")
	}
	return out, nil
}

// appendValue appends the next JSON value of dec to dst, compact and with
// null object members dropped.
func appendValue(dst []byte, dec *json.Decoder) ([]byte, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return appendToken(dst, dec, tok)
}

func appendToken(dst []byte, dec *json.Decoder, tok json.Token) ([]byte, error) {
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			return appendObject(dst, dec)
		case '[':
			return appendArray(dst, dec)
		}
		return nil, fmt.Errorf("invalid JSON: unexpected %q", v)
	case string:
		return appendString(dst, v), nil
	case json.Number:
		return append(dst, v...), nil
	case bool:
		if v {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case nil:
		return append(dst, "null"...), nil
	}
	return nil, fmt.Errorf("invalid JSON: unexpected token %v", tok)
}

func appendObject(dst []byte, dec *json.Decoder) ([]byte, error) {
	dst = append(dst, '{')
	n := 0
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		key, _ := k.(string)
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		if tok == nil {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, key), ':')
		if dst, err = appendToken(dst, dec, tok); err != nil {
			return nil, err
		}
		n++
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return append(dst, '}'), nil
}

func appendArray(dst []byte, dec *json.Decoder) ([]byte, error) {
	dst = append(dst, '[')
	for n := 0; dec.More(); n++ {
		if n > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendValue(dst, dec); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return append(dst, ']'), nil
}

// appendString appends s as a JSON string. Unlike encoding/json it does
// not escape <, > and &: request bodies carry code and shell output, and
// their bytes should read as the agent sent them. Invalid UTF-8 becomes
// U+FFFD, as in encoding/json.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// marshal encodes v as compact JSON without HTML escaping.
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
