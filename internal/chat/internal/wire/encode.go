package wire

import (
	"fmt"

	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"

	"github.com/winnowhq/winnow/internal/chat"
)

// EncodeMessages encodes each of msgs with encode: an unchanged message is
// its original bytes, a changed one memo remembers is the bytes it
// remembers, and any other is encoded and remembered. memo may be nil.
func EncodeMessages(msgs []chat.Message, memo *chat.EncodeMemo, encode func(*chat.Message) ([]byte, error)) ([][]byte, error) {
	elems := make([][]byte, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		if raw := m.Original(); raw != nil {
			elems[i] = raw
			continue
		}
		if raw, ok := memo.Encoded(m); ok {
			elems[i] = raw
			continue
		}
		b, err := encode(m)
		if err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		memo.Remember(m, b)
		elems[i] = b
	}
	return elems, nil
}

// EncodeParts encodes each of parts with encode, as an array laid out like
// orig, the array they replace (nil for new content), whose split the
// decoder recorded as arr (nil if it did not).
func EncodeParts(parts []chat.Part, orig []byte, arr *rawjson.ArraySpans, encode func(*chat.Part) ([]byte, error)) ([]byte, error) {
	elems := make([][]byte, len(parts))
	for i := range parts {
		b, err := encode(&parts[i])
		if err != nil {
			return nil, fmt.Errorf("content[%d]: %w", i, err)
		}
		elems[i] = b
	}
	return rawjson.SpliceArrayOf(arr, orig, elems), nil
}

// TextString encodes p, a Text part, as a JSON string: its original
// bytes if it was decoded from one, else its text quoted.
func TextString(p *chat.Part) []byte {
	if raw := p.Original(); len(raw) > 0 && raw[0] == '"' {
		return raw
	}
	return rawjson.Quote(p.Text)
}

// OriginalBlock returns the bytes of p as an element of a content array
// if p is unchanged: its original bytes, or, for a Text part that was a
// string content, that string wrapped in a text block.
func OriginalBlock(p *chat.Part) ([]byte, bool) {
	raw := p.Original()
	switch {
	case raw == nil:
		return nil, false
	case raw[0] != '"' || p.Type != chat.Text:
		return raw, true
	}
	return rawjson.NewObject(TypeMember("text"), rawjson.Edit{Key: "text", Value: raw}), true
}

// TypeMember is the member "type": t.
func TypeMember(t string) rawjson.Edit {
	return rawjson.Edit{Key: "type", Value: rawjson.Quote(t)}
}

// FieldEdits returns the edits that bring obj's top-level members, other
// than those named in skip, in line with fields.
func FieldEdits(obj *rawjson.Object, fields []chat.Field, skip ...string) []rawjson.Edit {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	value := func(name string) ([]byte, bool) {
		for i := len(fields) - 1; i >= 0; i-- {
			if fields[i].Name == name {
				return fields[i].Value, true
			}
		}
		return nil, false
	}
	return rawjson.MemberEdits(obj, names, value, skip...)
}
