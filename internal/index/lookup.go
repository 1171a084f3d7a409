package index

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/sahilm/fuzzy"

	"github.com/winnowhq/winnow/internal/symbol"
)

// How says how a symbol matched a lookup, best first.
type How int

const (
	HowExact  How = iota // the name or qualified name, exactly
	HowCase              // the same, ignoring case
	HowName              // the name, under another qualifier than asked
	HowPrefix            // the name starts with the query
	HowFuzzy             // a near miss, or the query's letters in order
)

var howNames = [...]string{"exact", "case", "name", "prefix", "fuzzy"}

func (h How) String() string {
	if h >= 0 && int(h) < len(howNames) {
		return howNames[h]
	}
	return "none"
}

func (h How) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// A Match is a symbol found by Lookup.
type Match struct {
	symbol.Symbol
	How How `json:"match"`

	nameRank int   // within a tier: how close the name is to the query, best first
	id       int64 // symbols.id, to read the details of the matches kept
}

// LookupOptions narrow a Lookup.
type LookupOptions struct {
	Limit int           // at most this many matches; default 20
	Kinds []symbol.Kind // only these kinds; empty means all
	Exact bool          // only exact matches, ignoring case at most
}

const (
	defaultLookupLimit = 20
	maxFuzzyNames      = 50 // distinct names a fuzzy lookup expands into symbols
)

// Lookup finds definitions by name: exact matches of the name or of a
// qualified name ("Class.method", "pkg.Func", "a::b"), then the same
// ignoring case, then names starting with the query; only when none of
// those exist, fuzzy matches (typos by edit distance, then the query's
// letters in order). Within each tier,
// types and functions come before fields and variables and code before
// tests.
func (ix *Index) Lookup(ctx context.Context, query string, opts LookupOptions) (_ []Match, err error) {
	defer ix.classify(&err)
	q := strings.TrimSpace(strings.ReplaceAll(query, "::", "."))
	if q == "" {
		return nil, fmt.Errorf("lookup: empty name")
	}
	if opts.Limit <= 0 {
		opts.Limit = defaultLookupLimit
	}
	name := q[strings.LastIndexByte(q, '.')+1:]
	if name == "" {
		return nil, fmt.Errorf("lookup %q: the name ends with a dot", query)
	}
	// Rank on brief rows; read signatures and docs for the winners only
	// (a name like __init__ has thousands of definitions).
	syms, err := ix.queryBrief(ctx, "WHERE s.name = ? COLLATE NOCASE", name)
	if err != nil {
		return nil, err
	}
	var out []Match
	for _, m := range syms {
		if m.How = exactness(q, m.Symbol); m.How <= HowCase || !opts.Exact {
			out = append(out, m)
		}
	}
	if !opts.Exact && len(out) < opts.Limit {
		more, err := ix.lookupLoose(ctx, name, len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	out = filterKinds(out, opts.Kinds)
	slices.SortStableFunc(out, func(a, b Match) int {
		return cmp.Or(cmp.Compare(a.How, b.How), cmp.Compare(a.nameRank, b.nameRank), compareDefinitions(&a.Symbol, &b.Symbol))
	})
	out = out[:min(len(out), opts.Limit)]
	return out, ix.fillDetails(ctx, out)
}

// briefColumns are the columns ranking needs.
const briefColumns = "s.id, f.path, s.name, s.qual, s.kind, s.visibility, s.start_line"

// queryBrief reads matches with only briefColumns filled in.
func (ix *Index) queryBrief(ctx context.Context, where string, args ...any) ([]Match, error) {
	rows, err := ix.db.QueryContext(ctx, "SELECT "+briefColumns+symbolsFrom+where, args...)
	if err != nil {
		return nil, fmt.Errorf("query symbols: %w", err)
	}
	defer rows.Close()
	var out []Match
	for rows.Next() {
		var m Match
		var kind, vis int
		if err := rows.Scan(&m.id, &m.Path, &m.Name, &m.Qual, &kind, &vis, &m.Span.StartLine); err != nil {
			return nil, fmt.Errorf("query symbols: %w", err)
		}
		m.Kind, m.Visibility = symbol.Kind(kind), symbol.Visibility(vis)
		out = append(out, m)
	}
	return out, rows.Err()
}

// fillDetails replaces brief matches with their full symbols.
func (ix *Index) fillDetails(ctx context.Context, ms []Match) error {
	if len(ms) == 0 {
		return nil
	}
	ids := make([]any, len(ms))
	for i, m := range ms {
		ids[i] = m.id
	}
	rows, err := ix.db.QueryContext(ctx, "SELECT "+symbolColumns+symbolsFrom+"WHERE s.id IN ("+placeholders(len(ids))+")", ids...)
	if err != nil {
		return fmt.Errorf("query symbols: %w", err)
	}
	defer rows.Close()
	full := make(map[int64]symbol.Symbol, len(ms))
	for rows.Next() {
		id, s, err := scanSymbol(rows)
		if err != nil {
			return fmt.Errorf("query symbols: %w", err)
		}
		full[id] = s
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("query symbols: %w", err)
	}
	for i := range ms {
		if s, ok := full[ms[i].id]; ok {
			ms[i].Symbol = s
		}
	}
	return nil
}

// exactness grades a symbol whose name equals the query's last segment,
// ignoring case.
func exactness(q string, s symbol.Symbol) How {
	dotted := strings.Contains(q, ".")
	switch {
	case !dotted && s.Name == q, dotted && qualMatches(s.Qual, q):
		return HowExact
	case !dotted, qualMatches(strings.ToLower(s.Qual), strings.ToLower(q)):
		return HowCase
	}
	return HowName
}

// qualMatches reports whether qual is q or ends with "."+q.
func qualMatches(qual, q string) bool {
	return qual == q || strings.HasSuffix(qual, "."+q)
}

// lookupLoose finds names that start with name and, when nothing at all
// matched so far, near misses: a fuzzy search costs a pass over every
// name, so it runs only when it is the one chance of an answer.
func (ix *Index) lookupLoose(ctx context.Context, name string, found int) ([]Match, error) {
	prefix, err := ix.prefixNames(ctx, name, maxFuzzyNames)
	if err != nil {
		return nil, err
	}
	out, err := ix.symbolsNamed(ctx, prefix, HowPrefix)
	if err != nil || found+len(out) > 0 {
		return out, err
	}
	list, err := ix.nameList(ctx)
	if err != nil {
		return nil, err
	}
	return ix.symbolsNamed(ctx, fuzzyCandidates(name, list, maxFuzzyNames), HowFuzzy)
}

// prefixNames returns up to limit distinct names that start with prefix,
// ignoring case, shortest first, excluding prefix itself. It reads a
// range of the case-insensitive name index.
func (ix *Index) prefixNames(ctx context.Context, prefix string, limit int) ([]string, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT DISTINCT name FROM symbols
		WHERE name > ?1 COLLATE NOCASE AND name < ?1 || x'ff' COLLATE NOCASE
		ORDER BY length(name), name LIMIT ?2`, prefix, limit)
	if err != nil {
		return nil, fmt.Errorf("read names: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("read names: %w", err)
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// symbolsNamed returns the symbols with the given names as matches of
// one tier, ranked by the order of names.
func (ix *Index) symbolsNamed(ctx context.Context, names []string, how How) ([]Match, error) {
	if len(names) == 0 {
		return nil, nil
	}
	// The name index is case-insensitive: compare the same way to use it,
	// then keep the exact names.
	ms, err := ix.queryBrief(ctx, "WHERE s.name COLLATE NOCASE IN ("+placeholders(len(names))+")", anySlice(names)...)
	if err != nil {
		return nil, err
	}
	rank := make(map[string]int, len(names))
	for i, n := range names {
		rank[n] = i
	}
	out := ms[:0]
	for _, m := range ms {
		if r, ok := rank[m.Name]; ok {
			m.How, m.nameRank = how, r
			out = append(out, m)
		}
	}
	return out, nil
}

// fuzzyCandidates ranks near misses by edit distance (typos) first,
// then names holding the query's letters in order (ranked camelCase and
// separator aware), leaving out exact and prefix matches. Cheap filters
// (length, letters present) spare most names the edit-distance table.
func fuzzyCandidates(q string, list *nameList, limit int) []string {
	lower := strings.ToLower(q)
	qmask := letterMask(lower)
	// One edit in four letters, at most three: beyond that a "near miss"
	// is another name.
	maxDist := min(3, max(1, (len(q)+2)/4))
	type near struct {
		name string
		dist int
	}
	var nears []near
	var subseq []string
	var dist distance
	for i, ln := range list.lower {
		if strings.HasPrefix(ln, lower) {
			continue // an exact or prefix match already
		}
		m := list.masks[i]
		if qmask&^m == 0 && isSubsequence(lower, ln) {
			subseq = append(subseq, list.names[i])
			continue
		}
		if abs(len(ln)-len(lower)) > maxDist || bits.OnesCount64(qmask&^m) > maxDist || bits.OnesCount64(m&^qmask) > maxDist {
			continue
		}
		if d := dist.within(lower, ln, maxDist); d <= maxDist {
			nears = append(nears, near{list.names[i], d})
		}
	}
	slices.SortFunc(nears, func(a, b near) int { return cmp.Or(cmp.Compare(a.dist, b.dist), strings.Compare(a.name, b.name)) })
	var out []string
	for _, n := range nears[:min(len(nears), limit)] {
		out = append(out, n.name)
	}
	for _, m := range fuzzy.Find(q, subseq) {
		if len(out) == limit {
			break
		}
		out = append(out, m.Str)
	}
	return out
}

// isSubsequence reports whether the bytes of q appear in s in order.
func isSubsequence(q, s string) bool {
	i := 0
	for j := 0; i < len(q) && j < len(s); j++ {
		if q[i] == s[j] {
			i++
		}
	}
	return i == len(q)
}

// letterMask has a bit for each letter, digit and '_' in s (and one for
// everything else): what a name must share with a near miss.
func letterMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			m |= 1 << (c - 'a')
		case c >= '0' && c <= '9':
			m |= 1 << (26 + c - '0')
		case c == '_':
			m |= 1 << 36
		default:
			m |= 1 << 63
		}
	}
	return m
}

// distance holds the rows of the edit-distance table, reused across
// calls so that scanning thousands of names does not allocate.
type distance struct{ rows [3][]int }

// within is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and transpositions of adjacent
// bytes each cost one, so that the commonest typo, two swapped letters,
// is one edit away) when it is at most limit, and limit+1 otherwise. It
// fills only the band of the table within limit of the diagonal and
// stops as soon as a row has nothing within limit.
func (d *distance) within(a, b string, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	const inf = 1 << 30
	for k := range d.rows {
		if cap(d.rows[k]) < len(b)+1 {
			d.rows[k] = make([]int, len(b)+1)
		}
		d.rows[k] = d.rows[k][:len(b)+1]
	}
	prev2, prev, cur := d.rows[0], d.rows[1], d.rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		for j := range cur {
			cur[j] = inf
		}
		if lo == 1 {
			cur[0] = i
		}
		best := cur[0]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Names returns the distinct names of all definitions. The list is read
// once and kept until the index changes; callers must not modify it.
func (ix *Index) Names(ctx context.Context) (_ []string, err error) {
	defer ix.classify(&err)
	list, err := ix.nameList(ctx)
	if err != nil {
		return nil, err
	}
	return list.names, nil
}

// nameList is the cached list of distinct names, with their lower-case
// forms for case-insensitive matching.
type nameList struct {
	gen   string // the index generation it was read at
	names []string
	lower []string
	masks []uint64 // letterMask of lower
}

// nameCache holds the nameList of an index.
type nameCache struct {
	sync.Mutex
	list *nameList
}

func (ix *Index) nameList(ctx context.Context) (*nameList, error) {
	var gen string
	if err := ix.db.QueryRowContext(ctx, "SELECT coalesce((SELECT value FROM meta WHERE key = 'generation'), '')").Scan(&gen); err != nil {
		return nil, fmt.Errorf("read index generation: %w", err)
	}
	ix.nameCache.Lock()
	defer ix.nameCache.Unlock()
	if l := ix.nameCache.list; l != nil && l.gen == gen {
		return l, nil
	}
	rows, err := ix.db.QueryContext(ctx, "SELECT DISTINCT name FROM symbols")
	if err != nil {
		return nil, fmt.Errorf("read names: %w", err)
	}
	defer rows.Close()
	l := &nameList{gen: gen, names: []string{}}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("read names: %w", err)
		}
		l.names = append(l.names, n)
		ln := strings.ToLower(n)
		l.lower = append(l.lower, ln)
		l.masks = append(l.masks, letterMask(ln))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read names: %w", err)
	}
	ix.nameCache.list = l
	return l, nil
}

func filterKinds(ms []Match, kinds []symbol.Kind) []Match {
	if len(kinds) == 0 {
		return ms
	}
	return slices.DeleteFunc(ms, func(m Match) bool { return !slices.Contains(kinds, m.Kind) })
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
