package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
)

// keyDomain separates the hashes of keys from any other SHA-256 of the same bytes, and
// versions the hash input: a change to it must change this string.
const keyDomain = "winnow/store/key/v1\x00"

// hashBytes is how many bytes of the SHA-256 a key keeps: 64 bits, so that a source with a
// million entries has about one chance in 36 million of any two colliding (32 bits would
// expect about a hundred collisions there, each one a wrong answer).
const hashBytes = 8

// Key returns the content-addressed key of a digest of content:
//
//	compact:{source}:{strategyVersion}:{strategy}:{hash}
//
// where hash is the first 8 bytes, in hex, of a SHA-256 over the source, the strategy
// version, the strategy name, the level and the content (exactly: keyDomain,
// uvarint(len(source)), source, varint(strategyVersion), uvarint(len(strategy)), strategy,
// varint(level), content; lengths first, so that no two inputs share a hash input). Changing any of them gives a new key
// and leaves the keys of every other input as they were; equal inputs always give the same
// key, in every process and on every machine. In source and strategy, "%", ":" and control
// characters are percent-encoded, so that the fields cannot run into each other and
// [KeyPrefix] selects exactly one source.
func Key(source string, strategyVersion int, strategy string, level int, content []byte) string {
	h := sha256.New()
	buf := []byte(keyDomain)
	buf = binary.AppendUvarint(buf, uint64(len(source)))
	buf = append(buf, source...)
	buf = binary.AppendVarint(buf, int64(strategyVersion))
	buf = binary.AppendUvarint(buf, uint64(len(strategy)))
	buf = append(buf, strategy...)
	buf = binary.AppendVarint(buf, int64(level))
	h.Write(buf)
	h.Write(content)
	sum := h.Sum(nil)

	var b strings.Builder
	b.WriteString(KeyPrefix(source))
	b.WriteString(strconv.Itoa(strategyVersion))
	b.WriteByte(':')
	b.WriteString(escapeField(strategy))
	b.WriteByte(':')
	b.WriteString(hex.EncodeToString(sum[:hashBytes]))
	return b.String()
}

// KeyPrefix returns the prefix shared by the keys of source and no other source, for
// [Store].Scan: "compact:{source}:".
func KeyPrefix(source string) string {
	return "compact:" + escapeField(source) + ":"
}

// escapeField percent-encodes "%", ":" and the ASCII control characters of a key field.
func escapeField(s string) string {
	if !strings.ContainsFunc(s, needsEscape) {
		return s
	}
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if needsEscape(rune(c)) {
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func needsEscape(r rune) bool { return r == '%' || r == ':' || r < 0x20 || r == 0x7f }
