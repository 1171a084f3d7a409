package retrieve

import (
	"bytes"
	"context"
	"strconv"
	"strings"

	"github.com/winnowhq/winnow/internal/intent"
	"github.com/winnowhq/winnow/internal/symbol"
)

// Limits on what a card carries.
const (
	maxStandardDocLines = 12
	maxMembers          = 40
	maxFullLines        = 400 // a longer definition is shown as a standard card
)

// definitionCards turns the top of the ranking into compact cards, best
// first. Only callables and types lead; fields and variables follow
// their betters.
func (p *packer) definitionCards(ctx context.Context) ([]Card, error) {
	var ids []int64
	var picked []RankedDef
	for _, d := range p.r.Defs {
		if len(picked) == maxDefinitionCards {
			break
		}
		picked = append(picked, d)
		ids = append(ids, d.ID)
	}
	syms, err := p.e.ix.SymbolsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	p.syms = syms
	var cards []Card
	for i, d := range picked {
		s, ok := syms[d.ID]
		if !ok {
			p.gone++
			continue // gone since the ranking was made
		}
		c := p.symbolCard(s, d.ID, intent.Definitions)
		c.Rank = i + 1
		cards = append(cards, c)
	}
	return cards, nil
}

// symbolCard is the compact card of a definition.
func (p *packer) symbolCard(s symbol.Symbol, id int64, section intent.Section) Card {
	c := Card{
		Section: section, Kind: s.Kind.String(), Name: s.Qual, Path: s.Path,
		StartLine: s.Span.StartLine, EndLine: s.Span.EndLine, Detail: Compact,
		lang: p.langOf(s.Path), id: id,
	}
	c.Text = compactText(s)
	return c // counted by fill or fillDefinitions, once it competes for the budget
}

// langOf is the language of an indexed file.
func (p *packer) langOf(path string) string {
	if fi, ok := p.c.byPath[path]; ok {
		return p.c.files[fi].lang
	}
	return ""
}

func compactText(s symbol.Symbol) string {
	sig := s.Signature
	if sig == "" {
		sig = s.Kind.String() + " " + s.Name
	}
	if d := s.DocLine(); d != "" {
		return sig + "\n  " + d
	}
	return sig
}

// variant builds the card of the same definition at another detail. It
// reports false when that detail is not worth showing (a full body too
// long, a standard card no richer than the compact one).
func (p *packer) variant(ctx context.Context, c Card, d Detail) (Card, bool) {
	s, ok := p.syms[c.id]
	if !ok {
		return c, false
	}
	v := c
	v.Detail = d
	switch d {
	case Full:
		if s.Span.Lines() > maxFullLines {
			return c, false
		}
		src, err := p.source(s.Path)
		if err != nil || s.Span.EndByte > len(src) {
			return c, false
		}
		start := lineStart(src, s.Span.StartByte)
		v.Text = string(src[start:s.Span.EndByte])
	case Standard:
		v.Text = p.standardText(ctx, s, c.id)
		if v.Text == c.Text {
			return c, false
		}
	default:
		return c, true
	}
	v.Tokens = p.count(v)
	return v, true
}

// standardText is a definition's signature, its doc, and for a type the
// signatures of its members.
func (p *packer) standardText(ctx context.Context, s symbol.Symbol, id int64) string {
	var b strings.Builder
	if s.Parent != "" {
		b.WriteString("in " + s.Parent + "\n")
	}
	sig := s.Signature
	if sig == "" {
		sig = s.Kind.String() + " " + s.Name
	}
	b.WriteString(sig)
	if s.Doc != "" {
		lines := strings.Split(s.Doc, "\n")
		if len(lines) > maxStandardDocLines {
			lines = append(lines[:maxStandardDocLines], "…")
		}
		for _, l := range lines {
			b.WriteString("\n  " + l)
		}
	}
	if s.Kind.IsType() {
		for i, m := range p.members(ctx, s, id) {
			if i == maxMembers {
				b.WriteString("\n  …")
				break
			}
			sig, _, _ := strings.Cut(m.Signature, "\n")
			if sig == "" {
				sig = m.Kind.String() + " " + m.Name
			}
			b.WriteString("\n  " + strconv.Itoa(m.Span.StartLine) + ": " + strings.TrimSpace(sig))
		}
	}
	return b.String()
}

// members returns the definitions directly inside a type, in order, up
// to one past maxMembers, which is all a card shows: a class of sympy has
// hundreds, and reading each with its documentation was most of sizing
// its card.
func (p *packer) members(ctx context.Context, s symbol.Symbol, id int64) []symbol.Symbol {
	di, ok := p.c.defByID[id]
	if !ok {
		return nil
	}
	var ids []int64
	for _, m := range p.c.files[p.c.defs[di].file].defs {
		if p.c.defs[m].Parent == s.Qual {
			ids = append(ids, p.c.defs[m].ID)
		}
	}
	var out []symbol.Symbol
	for len(ids) > 0 && len(out) <= maxMembers {
		// Those gone from the index since the ranking are left out, as
		// many more read.
		batch := ids[:min(len(ids), maxMembers+1-len(out))]
		ids = ids[len(batch):]
		found, err := p.e.ix.SymbolsByID(ctx, batch)
		if err != nil {
			return nil
		}
		for _, id := range batch {
			if m, ok := found[id]; ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// lineStart returns the offset of the start of the line holding off, so
// that a full card keeps the indentation of its first line.
func lineStart(src []byte, off int) int {
	if i := bytes.LastIndexByte(src[:off], '\n'); i >= 0 {
		return i + 1
	}
	return 0
}

// source reads a file once per pack.
func (p *packer) source(path string) ([]byte, error) {
	if src, ok := p.sources[path]; ok {
		return src, nil
	}
	src, err := p.e.ix.ReadSource(path)
	if err != nil {
		return nil, err
	}
	if p.sources == nil {
		p.sources = make(map[string][]byte)
	}
	p.sources[path] = src
	return src, nil
}
