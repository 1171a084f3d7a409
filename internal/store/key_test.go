package store

import (
	"regexp"
	"strings"
	"testing"
)

type keyInput struct {
	source   string
	version  int
	strategy string
	level    int
	content  string
}

func (in keyInput) key() string {
	return Key(in.source, in.version, in.strategy, in.level, []byte(in.content))
}

// TestKeyStable pins keys to literal values: a key must be the same in every process, on
// every machine and in every later winnow, or the cache silently stops hitting. The hashes
// were computed independently of this package, in Python, from the hash input key.go
// describes: SHA-256 of keyDomain, uvarint(len(source)), source, varint(version),
// uvarint(len(strategy)), strategy, varint(level), content; the first 8 bytes in hex.
func TestKeyStable(t *testing.T) {
	cases := []struct {
		in   keyInput
		want string
	}{
		{keyInput{"internal/store/key.go", 1, "code_signature", 1, "package store\n"}, "compact:internal/store/key.go:1:code_signature:9e4a686116ca4a5c"},
		{keyInput{"", 0, "", 0, ""}, "compact::0::7474548bbe38e61e"},
		{keyInput{"docs:a%b", -3, "x:y", 2, "\x00\xff"}, "compact:docs%3Aa%25b:-3:x%3Ay:d106859b342adbc3"},
	}
	for _, c := range cases {
		if got := c.in.key(); got != c.want {
			t.Errorf("Key(%+v) = %q, want %q", c.in, got, c.want)
		}
		if got := c.in.key(); got != c.want {
			t.Errorf("second Key(%+v) = %q", c.in, got)
		}
	}
}

// TestKeySensitive changes one input at a time: each change gives a new key with the same
// prefix where the source is the same, and no two inputs share a key.
func TestKeySensitive(t *testing.T) {
	base := keyInput{"src/a.py", 2, "code_signature", 1, "def f(): pass\n"}
	variants := map[string]keyInput{"base": base}
	add := func(name string, f func(*keyInput)) {
		in := base
		f(&in)
		variants[name] = in
	}
	add("source", func(in *keyInput) { in.source = "src/b.py" })
	add("source prefix", func(in *keyInput) { in.source = "src/a.p" })
	add("version", func(in *keyInput) { in.version = 3 })
	add("strategy", func(in *keyInput) { in.strategy = "code_security" })
	add("level", func(in *keyInput) { in.level = 2 })
	add("content", func(in *keyInput) { in.content = "def f(): pass\n\n" })
	add("content byte", func(in *keyInput) { in.content = "def g(): pass\n" })
	add("empty content", func(in *keyInput) { in.content = "" })
	// Fields that would run into each other if they were only concatenated.
	add("shifted 1", func(in *keyInput) { in.source, in.strategy = "src/a.py:2", "code_signature" })
	add("shifted 2", func(in *keyInput) { in.strategy, in.content = "code_signaturedef f(): pass\n", "" })

	format := regexp.MustCompile(`^compact:[^:]*:-?[0-9]+:[^:]*:[0-9a-f]{16}$`)
	seen := map[string]string{}
	for name, in := range variants {
		k := in.key()
		if !format.MatchString(k) {
			t.Errorf("%s: key %q is not compact:{source}:{version}:{strategy}:{hash}", name, k)
		}
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s share the key %q", name, other, k)
		}
		seen[k] = name
		if !strings.HasPrefix(k, KeyPrefix(in.source)) {
			t.Errorf("%s: key %q does not start with KeyPrefix(%q)", name, k, in.source)
		}
	}
	if strings.HasPrefix(variants["shifted 1"].key(), KeyPrefix(base.source)) {
		t.Errorf("KeyPrefix(%q) selects the keys of source %q", base.source, variants["shifted 1"].source)
	}
}

func TestEscapeField(t *testing.T) {
	for in, want := range map[string]string{
		"plain/path.go": "plain/path.go",
		"a:b":           "a%3Ab",
		"100%":          "100%25",
		"tab\there\n":   "tab%09here%0A",
		"del\x7f":       "del%7F",
		"héllo\xff":     "héllo\xff",
	} {
		if got := escapeField(in); got != want {
			t.Errorf("escapeField(%q) = %q, want %q", in, got, want)
		}
	}
}
