package retrieve

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/winnowhq/winnow/internal/index"
)

// A Format is how a Pack is written out.
type Format int

const (
	XML      Format = iota // XML-tagged sections; card text is raw, not escaped
	Markdown               // headings and fenced code
	JSON                   // the Pack as JSON
)

// ParseFormat reads a format name: xml, md (markdown) or json.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "xml", "":
		return XML, nil
	case "md", "markdown":
		return Markdown, nil
	case "json":
		return JSON, nil
	}
	return 0, fmt.Errorf("unknown format %q: use xml, md or json", s)
}

func (f Format) String() string { return [...]string{"xml", "md", "json"}[f] }

// Render writes the pack in format f.
func (p *Pack) Render(w io.Writer, f Format) error {
	_, err := io.WriteString(w, p.render(f, true))
	return err
}

// packJSON is the JSON form of a Pack: compact, what a script needs.
type packJSON struct {
	Task         string            `json:"task"`
	Intent       string            `json:"intent"`
	Confidence   float64           `json:"confidence"`
	Budget       int               `json:"budget"`
	Index        index.Tier        `json:"index"`
	Tokens       int               `json:"tokens"`
	Sections     []SectionPack     `json:"sections"`
	Explain      []Explanation     `json:"explain,omitempty"`
	ExplainFiles []FileExplanation `json:"explain_files,omitempty"`
}

// render writes the pack; explanations (JSON only) are left out of the
// form whose tokens the budget counts.
func (p *Pack) render(f Format, withExplain bool) string {
	title := p.title
	if title == "" {
		title = firstLine(p.Task, maxTitleBytes)
	}
	if f == JSON {
		v := packJSON{Task: title, Intent: p.Intent.Kind.String(), Confidence: p.Intent.Confidence,
			Budget: p.Budget, Index: p.Index, Tokens: p.Tokens, Sections: p.Sections}
		if v.Sections == nil {
			v.Sections = []SectionPack{}
		}
		if withExplain {
			v.Explain, v.ExplainFiles = p.Explain, p.ExplainFiles
		}
		data, _ := json.Marshal(v)
		return string(data) + "\n"
	}
	// One builder sized for the cards' text, which is most of a pack:
	// packing renders a pack to count it, and again after dropping cards.
	size := 256
	for _, s := range p.Sections {
		size += 2*len(s.Name) + 16
		for _, c := range s.Cards {
			size += cardSize(c)
		}
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(openPack(f, title, p.Intent.Kind.String(), p.Budget, p.Index))
	for _, s := range p.Sections {
		b.WriteString(openSection(f, s.Name))
		for _, c := range s.Cards {
			writeCard(&b, f, c)
		}
		b.WriteString(closeSection(f, s.Name))
	}
	b.WriteString(closePack(f))
	return b.String()
}

// maxTitleBytes bounds the task's first line in a pack's header.
const maxTitleBytes = 120

// openPack writes the pack's header. It names the index's tier, so that
// a reader of a pack from the quick tier (definitions found by a fast
// scan, before the full index is built) knows.
func openPack(f Format, title, intent string, budget int, tier index.Tier) string {
	switch f {
	case Markdown:
		return fmt.Sprintf("# Context: %s\n\nIntent: %s. Budget: %d tokens. Index: %s.\n\n", title, intent, budget, tier)
	case XML:
		return fmt.Sprintf("<context task=\"%s\" intent=\"%s\" budget=\"%d\" index=\"%s\">\n", attr(title), intent, budget, tier)
	}
	return ""
}

func closePack(f Format) string {
	if f == XML {
		return "</context>\n"
	}
	return ""
}

func openSection(f Format, name string) string {
	switch f {
	case Markdown:
		return "## " + strings.ToUpper(name[:1]) + name[1:] + "\n\n"
	case XML:
		return "<" + name + ">\n"
	}
	return ""
}

func closeSection(f Format, name string) string {
	if f == XML {
		return "</" + name + ">\n"
	}
	return ""
}

// renderCard is one card as written, with its location on every card.
func renderCard(f Format, c Card) string {
	if f == JSON {
		data, _ := json.Marshal(c)
		return string(data) + ","
	}
	// Written piece by piece into a builder sized for the text, which is
	// most of a card: packing renders every candidate to size it.
	var b strings.Builder
	b.Grow(cardSize(c))
	writeCard(&b, f, c)
	return b.String()
}

// cardSize is about the bytes of card c as written in XML or Markdown:
// its text and the attributes or heading around it.
func cardSize(c Card) int {
	return len(c.Text) + len(c.Kind) + len(c.Name) + len(c.Path) + len(c.Note) + 96
}

// writeCard writes one card to b in XML or Markdown, with its location
// on every card. (A JSON card is marshalled whole: renderCard, and
// Pack.render for a pack.)
func writeCard(b *strings.Builder, f Format, c Card) {
	loc := c.Path + ":" + strconv.Itoa(c.StartLine) + "-" + strconv.Itoa(c.EndLine)
	text := strings.TrimRight(c.Text, "\n")
	switch f {
	case Markdown:
		if c.Name != "" {
			fmt.Fprintf(b, "### %s `%s` — %s", c.Kind, c.Name, loc)
		} else {
			fmt.Fprintf(b, "### %s — %s", c.Kind, loc)
		}
		if c.Note != "" {
			b.WriteString(" (" + c.Note + ")")
		}
		b.WriteString("\n```" + fenceLang(c.lang) + "\n")
		b.WriteString(text)
		b.WriteString("\n```\n\n")
	case XML:
		tag := cardTag(c)
		b.WriteString("<" + tag)
		if c.Name != "" {
			b.WriteString(` kind="` + attr(c.Kind) + `" name="` + attr(c.Name) + `"`)
		}
		b.WriteString(` loc="` + attr(loc) + `"`)
		if tag == "definition" {
			b.WriteString(` detail="` + c.Detail.String() + `"`)
		}
		if c.Note != "" {
			b.WriteString(` note="` + attr(c.Note) + `"`)
		}
		b.WriteString(">\n")
		b.WriteString(text)
		b.WriteString("\n</" + tag + ">\n")
	}
}

func cardTag(c Card) string {
	switch c.Kind {
	case "snippet":
		return "snippet"
	case "imports":
		return "file"
	}
	return "definition"
}

// attrEscaper escapes a value for an XML attribute. It is built once: a
// Replacer builds its tables on first use, which cost more than the
// escaping of a card's few attributes.
var attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;", "\n", " ")

// attr escapes a value for an XML attribute.
func attr(s string) string { return attrEscaper.Replace(s) }

// firstLine is s's first line, at most max bytes, as printable UTF-8:
// a task of binary garbage still renders as well-formed XML.
func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) > max {
		s = truncateUTF8(s, max) + "…"
	}
	return s
}

func truncateUTF8(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:min(n, len(s))]
}

// fenceLang is the Markdown code-fence tag for a language.
func fenceLang(lang string) string {
	switch lang {
	case "csharp":
		return "cs"
	case "ocaml_interface":
		return "ocaml"
	}
	return lang
}
