package tune

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// Snippet renders proposals as [tools."<name>"] tables of winnow's configuration, each
// change after a comment line giving its reason and each note as a comment. It is
// valid TOML on its own, and what each table sets replaces the model's value for that
// key (a follow_up list replaces the whole list).
func Snippet(ps []Proposal) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[tools.%s]\n", tomlString(p.Tool))
		for _, c := range p.Changes {
			writeChange(&b, c, "")
		}
		for _, n := range p.Notes {
			fmt.Fprintf(&b, "# note: %s\n", oneLine(n))
		}
	}
	return b.String()
}

// writeChange writes one change as a reason comment (after prefix, when given) and a
// key/value line.
func writeChange(b *strings.Builder, c Change, prefix string) {
	fmt.Fprintf(b, "# %s%s\n", prefix, oneLine(c.Reason))
	fmt.Fprintf(b, "%s = %s\n", c.Key, tomlValue(c.Value))
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// tomlValue renders the values a Change holds.
func tomlValue(v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case []toolvalue.FollowUp:
		if len(x) == 0 {
			return "[]"
		}
		var b strings.Builder
		b.WriteString("[\n")
		for _, f := range x {
			fmt.Fprintf(&b, "  { tool = %s, probability = %s", tomlString(f.Tool), strconv.FormatFloat(f.Probability, 'f', -1, 64))
			if len(f.Args) > 0 {
				b.WriteString(", args = {")
				for i, k := range slices.Sorted(maps.Keys(f.Args)) {
					if i > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, " %s = %s", tomlKey(k), tomlString(f.Args[k]))
				}
				b.WriteString(" }")
			}
			b.WriteString(" },\n")
		}
		b.WriteString("]")
		return b.String()
	}
	return tomlString(fmt.Sprint(v)) // not a kind Propose makes
}

var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func tomlKey(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return tomlString(k)
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
