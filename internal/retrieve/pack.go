package retrieve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/intent"
	"github.com/winnowhq/winnow/internal/symbol"
	"github.com/winnowhq/winnow/internal/tokens"
)

// DefaultBudget is the token budget of a context when none is given.
const DefaultBudget = 8000

// A Detail is how much of a definition a card shows.
type Detail int

const (
	Compact  Detail = iota // signature, kind, location, first doc line
	Standard               // + parent, the whole doc, and a class's members
	Full                   // the whole source of the definition
)

var detailNames = [...]string{"compact", "standard", "full"}

func (d Detail) String() string { return detailNames[d] }

func (d Detail) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// A Card is one item of a context: a definition at some detail, a
// source excerpt, a file's imports, a test or a caller.
type Card struct {
	Section   intent.Section `json:"-"`
	Kind      string         `json:"kind"` // symbol kind, or "snippet", "imports"
	Name      string         `json:"name,omitempty"`
	Path      string         `json:"path"`
	StartLine int            `json:"start_line"`
	EndLine   int            `json:"end_line"`
	Detail    Detail         `json:"detail"`
	Text      string         `json:"text"`
	Tokens    int            `json:"tokens"`         // as sized while packing (see Options.Counter); Pack.Tokens is the count that fits
	Rank      int            `json:"rank,omitempty"` // position of the definition in the ranking, from 1
	Note      string         `json:"note,omitempty"` // why the card is here, for tests and callers
	// Contains names the definitions whose whole source a full card
	// holds, besides its own: the methods of a class shown in full.
	Contains []string `json:"contains,omitempty"`

	lang string
	id   int64
}

// A SectionPack is the cards of one section.
type SectionPack struct {
	Section intent.Section `json:"-"`
	Name    string         `json:"name"`
	Budget  int            `json:"budget"`
	Tokens  int            `json:"tokens"`
	Cards   []Card         `json:"cards"`
}

// A Pack is the context for a task.
type Pack struct {
	Task     string        `json:"task"`
	Intent   intent.Result `json:"intent"`
	Budget   int           `json:"budget"`
	Tokens   int           `json:"tokens"` // the rendered pack's, counted exactly: at most Budget
	Sections []SectionPack `json:"sections"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	Ranking  *Ranking      `json:"ranking,omitempty"`
	Explain  []Explanation `json:"explain,omitempty"`
	// ExplainFiles says why the leading files ranked where they did.
	ExplainFiles []FileExplanation `json:"explain_files,omitempty"`
	// Index is the tier of the index the pack was made from: quick (the
	// fast scanner's definitions, until the full index is built) or full.
	Index index.Tier `json:"index"`

	title string // the task's first line as the header shows it, when shortened to fit
	// gone counts the ranked definitions the index no longer held when the pack was
	// made: an update (a file re-parsed, the quick tier upgraded) landed between the
	// ranking and the pack.
	gone int
}

// ErrBudgetTooSmall means not even an empty context fits the budget.
var ErrBudgetTooSmall = errors.New("token budget too small")

// Cards returns the number of cards and of full definition cards.
func (p *Pack) Cards() (cards, full int) {
	for _, s := range p.Sections {
		for _, c := range s.Cards {
			cards++
			if c.Detail == Full && c.Section == intent.Definitions {
				full++
			}
		}
	}
	return cards, full
}

// Index is the tier of the index the ranking was made on: quick or full.
func (r *Ranking) Index() index.Tier { return r.c.tier }

// A Request asks for the context of a task.
type Request struct {
	Task    string
	Budget  int    // tokens; 0 means DefaultBudget
	Format  Format // the format the pack will be rendered in, which its token count is for
	Explain bool   // attach each definition's feature shares
}

// maxDefinitionCards bounds the candidates the definitions section
// considers; the ranking below them is noise for a context.
const maxDefinitionCards = 40

// Context ranks the task's definitions and packs the best of them, with
// the snippets, imports, tests and callers the task's intent calls for,
// into the token budget. The pack never exceeds the budget.
func (e *Engine) Context(ctx context.Context, req Request) (*Pack, error) {
	pack, _, err := e.context(ctx, req)
	return pack, err
}

// ContextText is Context, and the pack's text as Render writes it in
// req.Format: the rendering its token count was made on, which a caller
// that sends the text on need not make again.
func (e *Engine) ContextText(ctx context.Context, req Request) (*Pack, string, error) {
	pack, p, err := e.context(ctx, req)
	if err != nil {
		return nil, "", err
	}
	return pack, p.text(pack, req.Explain), nil
}

// context is Context, and the packer that made the pack.
func (e *Engine) context(ctx context.Context, req Request) (*Pack, *packer, error) {
	start := time.Now()
	if req.Budget <= 0 {
		req.Budget = DefaultBudget
	}
	for retried := false; ; retried = true {
		r, err := e.Rank(ctx, req.Task)
		if err != nil {
			return nil, nil, err
		}
		if e.afterRank != nil {
			e.afterRank()
		}
		pack, p, err := e.pack(ctx, r, req)
		if err != nil {
			return nil, nil, err
		}
		// Definitions ranked on a corpus the index has since moved past (their ids
		// replaced by an update) are missing from the pack: rank once more on the
		// index as it is now.
		if !retried && pack.gone > 0 {
			if gen, err := e.ix.Stamp(ctx); err == nil && gen != r.c.gen {
				continue
			}
		}
		pack.Elapsed = time.Since(start)
		return pack, p, nil
	}
}

// Pack packs a ranking made by Rank for req.Task into req.Budget, so
// that one ranking can be packed at several budgets. It packs from the
// view of the index the ranking was made on.
func (e *Engine) Pack(ctx context.Context, r *Ranking, req Request) (*Pack, error) {
	pack, _, err := e.pack(ctx, r, req)
	return pack, err
}

// pack is Pack, and the packer that made the pack, which has the text it
// last counted (packer.text).
func (e *Engine) pack(ctx context.Context, r *Ranking, req Request) (*Pack, *packer, error) {
	start := time.Now()
	if req.Budget <= 0 {
		req.Budget = DefaultBudget
	}
	if r.c == nil {
		return nil, nil, errors.New("pack: the ranking was not made by Rank")
	}
	p := &packer{e: e, c: r.c, r: r, format: req.Format}
	p.counter, p.sizer = e.tokenCounters()
	pack, err := p.pack(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	if req.Explain {
		pack.Ranking = r
		pack.Explain = explain(r, maxDefinitionCards)
		pack.ExplainFiles = explainFiles(r, explainedFiles)
	}
	pack.Elapsed = time.Since(start)
	return pack, p, nil
}

// text is pack, which p made, as Render writes it: the text countPack
// last counted, unless that is not the pack's (counted) or the pack is
// JSON with explanations, which the count leaves out.
func (p *packer) text(pack *Pack, explain bool) string {
	if text := p.counted(pack); text != "" && !(explain && p.format == JSON) {
		return text
	}
	return pack.render(p.format, true)
}

// tokenCounters returns the counter that decides whether a pack fits
// and the one that sizes its candidate cards. Exact o200k counting runs
// at a few MB/s, and a pack weighs several times its own text in
// candidates (every section's cards, the full and standard variants of
// the leaders) to choose from, so by default cards are sized with the
// estimator (within a few percent on code) and only the rendered pack is
// counted exactly: enforce drops cards until that count fits. A Counter
// given in Options does both.
func (e *Engine) tokenCounters() (exact, sizer tokens.Counter) {
	if e.counter != nil {
		return e.counter, e.counter
	}
	est := tokens.NewEstimator(tokens.O200k)
	c, err := e.exact()
	if err != nil {
		return est, est
	}
	return c, est
}

// packer builds one Pack.
type packer struct {
	e       *Engine
	c       *corpus
	r       *Ranking
	format  Format
	counter tokens.Counter // decides what fits: the rendered pack
	sizer   tokens.Counter // sizes cards and the frame while packing
	sources map[string][]byte
	syms    map[int64]symbol.Symbol // full details of the ranked definitions
	gone    int                     // ranked definitions the index no longer holds

	// rendered is the text countPack last counted, and renderedTokens
	// the pack's Tokens it was rendered with (JSON writes them).
	rendered       string
	renderedTokens int
}

// count is the number of tokens a card takes as rendered, as the sizer
// counts them.
func (p *packer) count(c Card) int {
	return p.sizer.Count(renderCard(p.format, c))
}

func (p *packer) pack(ctx context.Context, req Request) (*Pack, error) {
	// Gather every section's candidates first, so that sections with
	// nothing to show give their share to the others.
	defs, err := p.definitionCards(ctx)
	if err != nil {
		return nil, err
	}
	cands := [intent.NumSections][]Card{intent.Definitions: defs}
	cands[intent.Snippets] = p.snippetCards()
	cands[intent.Imports] = p.importCards(ctx, defs)
	tests, callers := p.relatedCards(ctx, defs)
	cands[intent.Tests], cands[intent.Callers] = tests, callers

	pack := &Pack{Task: req.Task, Intent: p.r.Intent, Budget: req.Budget, Index: p.c.tier}
	// The frame of the pack (its header and section tags) comes out of
	// the budget first; a long task title is shortened to make room.
	frame := p.frameTokens(pack, cands)
	for frame > req.Budget/2 && len(p.titleOf(pack)) > 20 {
		pack.title = firstLine(p.titleOf(pack), len(p.titleOf(pack))/2)
		frame = p.frameTokens(pack, cands)
	}
	if empty := p.counter.Count(pack.render(p.format, false)); empty > req.Budget {
		return nil, fmt.Errorf("%w: even an empty context takes %d tokens; ask for more than %d", ErrBudgetTooSmall, empty, req.Budget)
	}
	p.layout(ctx, pack, cands, frame, req.Budget)
	p.countPack(pack)
	if scale := undercount(pack); pack.Tokens > req.Budget && scale > relayoutScale {
		// The sizer undercounted the cards by far more than its usual few
		// percent: dropping cards from the end until the pack fits would
		// leave much of the budget unused (a long body goes whole). Lay the
		// sections out again in the budget the sizer should have been
		// given, and fit that.
		p.layout(ctx, pack, cands, frame, frame+int(float64(req.Budget-frame)/scale))
		p.countPack(pack)
	}
	p.enforce(pack)
	pack.gone = p.gone
	return pack, nil
}

// relayoutScale is how far the sizer must have undercounted an
// overfull pack (exact tokens over sized ones) for the pack to be laid
// out again rather than cut down to fit.
const relayoutScale = 1.15

// layout fills pack's sections from the candidates cands within budget
// tokens as the sizer counts them, frame of them the pack's frame:
// each section gets its share of the room by the intent's profile, a
// section with no candidates giving its share to the others, and the
// definitions, packed last, what the others left.
func (p *packer) layout(ctx context.Context, pack *Pack, cands [intent.NumSections][]Card, frame, budget int) {
	room := max(budget-frame, 0)
	split := p.r.Intent.Profile.Split(room, func(s intent.Section) bool { return len(cands[s]) > 0 })
	used := frame
	order := []intent.Section{intent.Snippets, intent.Imports, intent.Tests, intent.Callers, intent.Definitions}
	var packed [intent.NumSections]*SectionPack
	for _, s := range order {
		b := split[s]
		if s == intent.Definitions {
			b = budget - used
		}
		b = max(b, 0)
		sp := &SectionPack{Section: s, Name: s.String(), Budget: b}
		if s == intent.Definitions {
			sp.Cards, sp.Tokens = p.fillDefinitions(ctx, cands[s], b)
		} else {
			sp.Cards, sp.Tokens = p.fill(cands[s], b)
		}
		used += sp.Tokens
		packed[s] = sp
	}
	pack.Sections = pack.Sections[:0]
	for _, sp := range packed {
		if len(sp.Cards) > 0 {
			pack.Sections = append(pack.Sections, *sp)
		}
	}
}

// dropOrder is the order cards are dropped in when the rendered pack
// is over budget: the least central sections first.
var dropOrder = []intent.Section{intent.Callers, intent.Tests, intent.Imports, intent.Snippets, intent.Definitions}

// enforce drops cards from the end of the least central sections until
// the pack, as rendered and counted exactly (Pack.Tokens, which it
// finds current), fits, since tokens of adjoining cards can merge
// differently than counted apart. Cards sized by an estimate can
// overshoot by more than one card: as many are dropped as the excess
// calls for, their sizes scaled by how far the sizer was off on the
// whole pack, before counting again.
func (p *packer) enforce(pack *Pack) {
	for pack.Tokens > pack.Budget {
		over := pack.Tokens - pack.Budget
		scale := undercount(pack)
		for over > 0 {
			dropped, ok := dropLast(pack)
			if !ok {
				break
			}
			over -= max(int(float64(dropped)*scale), 1)
		}
		p.countPack(pack)
	}
}

// countPack sets Pack.Tokens to the rendered pack's exact count. A JSON
// pack writes that count in itself ("tokens":2000), and its digits are
// tokens too: counted with the count it had before ("tokens":1987, or 0),
// it could be a token over once rendered with its own. So JSON is counted
// again with the count written in, until the count holds (once or twice;
// on the rare count that flips between two values, the larger stands,
// an overcount by a token at most).
func (p *packer) countPack(pack *Pack) {
	pack.Tokens = p.counter.Count(p.render(pack))
	if p.format != JSON {
		return
	}
	seen := map[int]bool{}
	for !seen[pack.Tokens] {
		seen[pack.Tokens] = true
		n := p.counter.Count(p.render(pack))
		if n == pack.Tokens {
			return
		}
		if seen[n] {
			pack.Tokens = max(n, pack.Tokens)
			return
		}
		pack.Tokens = n
	}
}

// render renders pack as its tokens are counted and remembers the text.
func (p *packer) render(pack *Pack) string {
	p.rendered, p.renderedTokens = pack.render(p.format, false), pack.Tokens
	return p.rendered
}

// counted is the text countPack last counted if it is pack's as rendered
// now, without explanations, or "". A pack is rendered from its fields,
// and what changes a rendered field after the last count (enforce drops
// cards) counts it again; of JSON's, only the count itself is written
// after: the text is the pack's when it was rendered with its final
// count.
func (p *packer) counted(pack *Pack) string {
	if p.format == JSON && p.renderedTokens != pack.Tokens {
		return ""
	}
	return p.rendered
}

// undercount is how far the sizer was off on pack: its exact tokens
// over the sum of its cards' sized ones.
func undercount(pack *Pack) float64 {
	sized := 0
	for _, sp := range pack.Sections {
		for _, c := range sp.Cards {
			sized += c.Tokens
		}
	}
	return float64(pack.Tokens) / float64(max(sized, 1))
}

// dropLast removes the last card of the least central section that has
// one and returns its tokens, reporting false when there is none.
func dropLast(pack *Pack) (int, bool) {
	for _, s := range dropOrder {
		for i := range pack.Sections {
			sp := &pack.Sections[i]
			if sp.Section != s || len(sp.Cards) == 0 {
				continue
			}
			last := sp.Cards[len(sp.Cards)-1]
			sp.Cards = sp.Cards[:len(sp.Cards)-1]
			sp.Tokens -= last.Tokens
			if len(sp.Cards) == 0 {
				pack.Sections = append(pack.Sections[:i], pack.Sections[i+1:]...)
			}
			return last.Tokens, true
		}
	}
	return 0, false
}

func (p *packer) titleOf(pack *Pack) string {
	if pack.title != "" {
		return pack.title
	}
	return firstLine(pack.Task, maxTitleBytes)
}

// frameTokens counts a pack rendered with all its sections and no cards.
func (p *packer) frameTokens(pack *Pack, cands [intent.NumSections][]Card) int {
	frame := *pack
	for s := range intent.NumSections {
		if len(cands[s]) > 0 {
			frame.Sections = append(frame.Sections, SectionPack{Section: s, Name: s.String()})
		}
	}
	return p.sizer.Count(frame.render(p.format, false))
}

// fill takes cards in order while they fit.
func (p *packer) fill(cards []Card, budget int) ([]Card, int) {
	var out []Card
	used := 0
	for _, c := range cards {
		c.Tokens = p.count(c)
		if used+c.Tokens > budget {
			continue
		}
		used += c.Tokens
		out = append(out, c)
	}
	return out, used
}

// slot is one ranked definition competing for the budget.
type slot struct {
	cards  [3]Card // by Detail; only the chosen one is always built
	chosen Detail
	in     bool    // in the pack
	value  float64 // what its full body is worth per token (see upgradeValue)
}

// Packing definitions: the leading candidates get a compact card each,
// about one per leadTokens of budget. Then every candidate's full body
// competes for the rest, the best value per token first (upgradeValue);
// a leader whose body does not fit gets a standard card if that does. A
// full card absorbs the cards of the definitions inside it. What is left
// goes to compact cards for the candidates after the leaders, in ranking
// order.
const (
	leadTokens = 500
	minLead    = 5
)

// upgradeValue is what showing a definition in full is worth per token
// it adds to the pack: 1/rank² over the tokens. The square makes rank
// count for more than size, since the definition a task is about is
// usually near the top, and a long one is as likely to be it as a short
// one; but a short method a few places down beats a 2,000-token body
// that would crowd out everything after it (see doc.go, Packing, for the
// measurements).
func upgradeValue(rank int, tokens int) float64 {
	r := float64(rank)
	return 1 / (r * r * float64(max(tokens, minUpgradeTokens)))
}

// minUpgradeTokens floors the cost of an upgrade, so that a body hardly
// longer than its compact card does not jump the whole ranking.
const minUpgradeTokens = 10

func (p *packer) fillDefinitions(ctx context.Context, cards []Card, budget int) ([]Card, int) {
	slots := make([]*slot, len(cards))
	lead := min(max(budget/leadTokens, minLead), len(cards))
	used := 0
	for i, c := range cards {
		c.Tokens = p.count(c)
		slots[i] = &slot{cards: [3]Card{Compact: c}, chosen: Compact}
		if i < lead && used+c.Tokens <= budget {
			used += c.Tokens
			slots[i].in = true
		}
	}
	for i, s := range slots {
		v, ok := p.variant(ctx, s.cards[Compact], Full)
		if !ok {
			continue // a leader may still get a standard card, after the bodies that fit
		}
		s.cards[Full] = v
		added := v.Tokens
		if s.in {
			added -= s.cards[Compact].Tokens
		}
		s.value = upgradeValue(i+1, added)
	}
	order := slices.Clone(slots)
	slices.SortStableFunc(order, func(a, b *slot) int { return cmp.Compare(b.value, a.value) })
	for _, s := range order {
		used = p.upgrade(ctx, slots, s, used, budget)
	}
	for _, s := range slots[lead:] {
		if c := s.cards[Compact]; !s.in && !containedInFull(slots, s) && used+c.Tokens <= budget {
			used += c.Tokens
			s.in = true
		}
	}
	var out []Card
	total := 0
	for _, s := range slots {
		if s.in {
			c := s.cards[s.chosen]
			if c.Detail == Full {
				c.Contains = p.nested(c)
			}
			total += c.Tokens
			out = append(out, c)
		}
	}
	return out, total
}

// upgrade shows s in full if that fits the budget, taking the place of
// its own card and of the cards inside its body; a leader (a slot
// already in) whose body does not fit gets a standard card if that does.
// It returns the tokens used after it.
func (p *packer) upgrade(ctx context.Context, slots []*slot, s *slot, used, budget int) int {
	if containedInFull(slots, s) {
		return used
	}
	for _, d := range []Detail{Full, Standard} {
		if d == Standard && !s.in {
			break // a candidate after the leaders comes in full or as a compact card
		}
		v := s.cards[d]
		if v.Detail != d {
			var ok bool
			if v, ok = p.variant(ctx, s.cards[Compact], d); !ok {
				continue
			}
		}
		freed := 0
		if s.in {
			freed = s.cards[s.chosen].Tokens
		}
		var inside []*slot
		if d == Full {
			for _, o := range slots {
				if o != s && o.in && contains(v, o.cards[o.chosen]) {
					inside = append(inside, o)
					freed += o.cards[o.chosen].Tokens
				}
			}
		}
		if used-freed+v.Tokens > budget {
			continue
		}
		s.cards[d], s.chosen, s.in = v, d, true
		for _, o := range inside {
			o.in = false
		}
		return used - freed + v.Tokens
	}
	return used
}

// nested returns the qualified names of the definitions inside card c's
// definition.
func (p *packer) nested(c Card) []string {
	di, ok := p.c.defByID[c.id]
	if !ok {
		return nil
	}
	outer := p.c.defs[di].Span
	var names []string
	for _, d := range p.c.files[p.c.defs[di].file].defs {
		def := &p.c.defs[d]
		if d != di && outer.StartByte <= def.Span.StartByte && def.Span.EndByte <= outer.EndByte {
			names = append(names, def.Qual)
		}
	}
	return names
}

// containedInFull reports whether s lies inside a definition already
// shown in full.
func containedInFull(slots []*slot, s *slot) bool {
	for _, o := range slots {
		if o != s && o.in && o.chosen == Full && contains(o.cards[Full], s.cards[s.chosen]) {
			return true
		}
	}
	return false
}

// contains reports whether card a's lines hold card b's.
func contains(a, b Card) bool {
	return a.Path == b.Path && a.StartLine <= b.StartLine && b.EndLine <= a.EndLine &&
		(a.StartLine < b.StartLine || b.EndLine < a.EndLine)
}
