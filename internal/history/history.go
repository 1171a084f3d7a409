package history

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/terms"
)

// FileName is the history file's name in an index directory.
const FileName = "history"

// Defaults of Options.
const (
	DefaultMaxCommits  = 20000 // the newest commits kept: years of a busy project
	DefaultMaxFiles    = 64    // a commit that changes more files is a sweep, not a fix: its files are left out
	maxMessageBytes    = 8 << 10
	maxTermsPerMessage = 256
)

// Options configure Update; nil or zero fields mean defaults.
type Options struct {
	// Git is the git binary; default "git" from PATH.
	Git string
	// MaxCommits bounds how many of HEAD's newest commits are kept.
	MaxCommits int
	// MaxFiles leaves out the files of commits that change more.
	MaxFiles int
	// Logger receives debug events; nil discards them.
	Logger *slog.Logger
}

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.Git == "" {
		out.Git = "git"
	}
	if out.MaxCommits <= 0 {
		out.MaxCommits = DefaultMaxCommits
	}
	if out.MaxFiles <= 0 {
		out.MaxFiles = DefaultMaxFiles
	}
	if out.Logger == nil {
		out.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return out
}

// Stats say what Update did.
type Stats struct {
	Head    string `json:"head,omitempty"` // the commit the file now describes; "" without history
	Commits int    `json:"commits"`        // commits in the file
	Added   int    `json:"added"`          // commits read from git by this update
	Rebuilt bool   `json:"rebuilt"`        // the file was written from scratch
	Reason  string `json:"reason,omitempty"`
}

// Update brings the history file in line with the HEAD of the git
// repository that holds root: when HEAD has moved forward it reads only
// the new commits; when it moved anywhere else (a checkout of an older
// commit, a rebase), or the file is missing, damaged or of another
// version, it reads the newest commits again. Without history to read
// (root not the top level of a git work tree, no commit yet, no git
// binary) it removes
// the file and returns Stats with the Reason and no error: the signal is
// simply absent. A repository git cannot read is an error, and the file
// is left as it was.
func Update(ctx context.Context, root, file string, opts *Options) (*Stats, error) {
	o := opts.withDefaults()
	g := &git{bin: o.Git, root: root}
	none := func(reason string) (*Stats, error) {
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("remove history %s: %w", file, err)
		}
		o.Logger.Debug("no git history", "root", root, "reason", reason)
		return &Stats{Reason: reason}, nil
	}
	if _, err := exec.LookPath(o.Git); err != nil {
		return none("no git binary: " + err.Error())
	}
	// Every update of the index asks (winnow context runs one per task): a
	// history already at HEAD is known from its file's header, and HEAD
	// from the repository's files, without decoding the file or starting
	// git (1-2 ms of CPU, 4 of wall).
	if head, ok := headOf(root); ok {
		if h, n, ok := peek(file); ok && h == head && n > 0 {
			return &Stats{Head: head, Commits: n}, nil
		}
	}
	r, err := g.open(ctx)
	if errors.Is(err, errNoRepo) {
		return none(err.Error())
	}
	if err != nil {
		return nil, fmt.Errorf("read git history of %s: %w (repair the repository, or remove its .git to index without history)", root, err)
	}
	// As above, for a HEAD only git could read.
	if head, n, ok := peek(file); ok && head == r.head && n > 0 {
		return &Stats{Head: r.head, Commits: n}, nil
	}
	if err := g.readable(ctx, r); err != nil {
		return nil, fmt.Errorf("read git history of %s: %w (repair the repository, or remove its .git to index without history)", root, err)
	}
	old, err := readFile(file)
	st := &Stats{Head: r.head}
	d := &data{head: r.head}
	since := ""
	if err == nil && old.head != "" && g.isAncestor(ctx, old.head, r.head) {
		since = old.head
	} else {
		old, st.Rebuilt = nil, true
	}
	b, err := readLog(ctx, g, r, d, since, o)
	if err != nil {
		return nil, fmt.Errorf("read git history of %s: %w", root, err)
	}
	st.Added = len(d.commits)
	if old != nil {
		b.extend(old, o.MaxCommits)
	}
	st.Commits = len(d.commits)
	if err := writeFile(file, d.encode()); err != nil {
		return nil, err
	}
	o.Logger.Debug("git history", "root", root, "head", r.head, "commits", st.Commits, "added", st.Added)
	return st, nil
}

// readLog reads the commits after since into d.
func readLog(ctx context.Context, g *git, r repo, d *data, since string, o Options) (*builder, error) {
	d.commits, d.paths = nil, nil
	b := newBuilder(d, o.MaxFiles)
	err := g.log(ctx, r, since, o.MaxCommits, func(c *commit) error {
		b.add(c)
		return nil
	})
	return b, err
}

// builder turns git's commits, newest first, into records, following
// renames: a path that a newer commit renamed is recorded under its
// newest name, so that a file's history survives its moves.
type builder struct {
	d        *data
	maxFiles int
	pathID   map[string]uint32
	renamed  map[string]string // old path → newest path
}

func newBuilder(d *data, maxFiles int) *builder {
	return &builder{d: d, maxFiles: maxFiles, pathID: make(map[string]uint32), renamed: make(map[string]string)}
}

func (b *builder) current(p string) string {
	if to, ok := b.renamed[p]; ok {
		return to
	}
	return p
}

func (b *builder) id(p string) uint32 {
	p = b.current(p)
	id, ok := b.pathID[p]
	if !ok {
		id = uint32(len(b.d.paths))
		b.d.paths = append(b.d.paths, p)
		b.pathID[p] = id
	}
	return id
}

func (b *builder) add(c *commit) {
	rec := record{hash: c.hash, time: c.time, terms: make(map[string]int)}
	msg := c.message
	if len(msg) > maxMessageBytes {
		msg = msg[:maxMessageBytes]
	}
	terms.Scan(messageText(msg), func(t string) {
		if rec.nterm < maxTermsPerMessage {
			rec.terms[t]++
			rec.nterm++
		}
	})
	if len(c.paths) <= b.maxFiles {
		seen := make(map[uint32]bool, len(c.paths))
		for _, p := range c.paths {
			if id := b.id(p); !seen[id] {
				seen[id] = true
				rec.files = append(rec.files, id)
			}
		}
	}
	// Older commits name these files by their old paths.
	for from, to := range c.renames {
		b.renamed[from] = b.current(to)
	}
	if rec.nterm > 0 || len(rec.files) > 0 {
		b.d.commits = append(b.d.commits, rec)
	}
}

// extend appends the records of an older file after the new commits,
// renaming their paths as the new commits did, up to max commits.
func (b *builder) extend(old *data, max int) {
	for _, rec := range old.commits {
		if len(b.d.commits) >= max {
			break
		}
		files := rec.files[:0:0]
		for _, f := range rec.files {
			files = append(files, b.id(old.paths[f]))
		}
		rec.files = files
		b.d.commits = append(b.d.commits, rec)
	}
}

// messageText is the part of a commit message that says what it does:
// without trailers (Signed-off-by:, Co-authored-by:), which name people,
// and with invalid UTF-8 replaced.
func messageText(msg string) string {
	msg = strings.ToValidUTF8(msg, " ")
	var sb strings.Builder
	for line := range strings.Lines(msg) {
		key, _, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if ok && strings.HasSuffix(strings.ToLower(key), "-by") && !strings.Contains(key, " ") {
			continue
		}
		sb.WriteString(line)
	}
	return sb.String()
}

// readFile opens a history file and reads it back into records.
func readFile(file string) (*data, error) {
	h, err := Open(file)
	if err != nil {
		return nil, err
	}
	if h == nil {
		return nil, fs.ErrNotExist
	}
	return h.records(), nil
}

// writeFile replaces file atomically: readers see the old file or the
// new one, never a part.
func writeFile(file string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("write history %s: %w", tmp.Name(), err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write history %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write history %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

// Open reads a history file. A missing file is (nil, nil): the tree has
// no history. A damaged file or one of another version is an error
// matching ErrFormat; the next Update rewrites it.
func Open(file string) (*History, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open history: %w", err)
	}
	h, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w (winnow index rewrites it)", file, err)
	}
	return h, nil
}

// ErrFormat matches the error of Open for a file that is damaged,
// truncated or of another version.
var ErrFormat = errFormat

// Head is the commit the history describes.
func (h *History) Head() string { return h.head }

// Len is the number of commits in the history.
func (h *History) Len() int { return len(h.commits) }

// A Hit is a commit whose message matches a query, with its BM25 score.
type Hit struct {
	Commit int // index, newest first
	Score  float64
}

// BM25 parameters over commit messages: short texts, so length matters
// less than in code.
const (
	bm25K1 = 1.2
	bm25B  = 0.5
)

// MaxQueryTerms bounds the query terms Search scores, strongest (weight
// times IDF) first.
const MaxQueryTerms = 48

// Search scores the commit messages by BM25 of the weighted query terms
// and returns the best k, best first. Ties go to the newer commit.
func (h *History) Search(query map[string]float64, k int) []Hit {
	if h == nil || len(h.commits) == 0 || k <= 0 {
		return nil
	}
	n := float64(len(h.commits))
	type qt struct {
		term   string
		w, idf float64
		df     int
		post   decoder // at the term's postings, past their count
	}
	var qts []qt
	for t, w := range query {
		post, ok := h.entry(t)
		if !ok {
			continue
		}
		if df := post.count(); df > 0 && w > 0 {
			qts = append(qts, qt{t, w, math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5)), df, post})
		}
	}
	// The strongest terms only: a long issue has hundreds, and the
	// common ones would touch every commit.
	slices.SortFunc(qts, func(a, b qt) int { return cmp.Or(cmp.Compare(b.w*b.idf, a.w*a.idf), strings.Compare(a.term, b.term)) })
	// Scores by commit in an array, the commits a term reached listed
	// once: a query's terms reach thousands of sympy's 20,000 commits,
	// which a map made a tenth of a warm query. The arrays are reused
	// from one search to the next, cleared where the search wrote.
	sc := h.searchScratch()
	defer h.scratch.Put(sc)
	scores, seen := sc.scores, sc.seen
	for _, q := range qts[:min(len(qts), MaxQueryTerms)] {
		w, idf, d := q.w, q.idf, q.post
		ci := 0
		for range q.df {
			ci += int(d.uvarint())
			tf := float64(int(d.uvarint()))
			if d.err != nil || ci >= len(h.commits) {
				break // a damaged entry ends the list early
			}
			if !seen[ci] {
				seen[ci] = true
				sc.reached = append(sc.reached, int32(ci))
			}
			scores[ci] += w * idf * tf * (bm25K1 + 1) / (tf + h.norms[ci])
		}
	}
	hits := topHits(scores, sc.reached, k)
	for _, ci := range sc.reached {
		scores[ci], seen[ci] = 0, false
	}
	sc.reached = sc.reached[:0]
	return hits
}

// bm25Norm is the length normalization of BM25 for a message of n terms
// where the average is avg.
func bm25Norm(n int, avg float64) float64 {
	return bm25K1 * (1 - bm25B + bm25B*float64(n)/max(avg, 1))
}

// searchScratch is what one Search writes: scores and marks by commit,
// all zero, and the list of commits reached, empty.
type searchScratch struct {
	scores  []float64
	seen    []bool
	reached []int32
}

func (h *History) searchScratch() *searchScratch {
	if sc, ok := h.scratch.Get().(*searchScratch); ok {
		return sc
	}
	return &searchScratch{scores: make([]float64, len(h.commits)), seen: make([]bool, len(h.commits))}
}

// topHits returns the k best of the commits reached by their scores,
// best first, ties to the older commit (the lower index), as sorting
// all of them would, keeping only k at a time.
func topHits(scores []float64, reached []int32, k int) []Hit {
	if k <= 0 {
		return nil
	}
	before := func(a, b Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Commit, b.Commit)) }
	// top is a heap with the worst of the best k at its root.
	top := make([]Hit, 0, min(k, len(reached)))
	worse := func(i, j int) bool { return before(top[i], top[j]) > 0 }
	for _, ci := range reached {
		h := Hit{int(ci), scores[ci]}
		switch {
		case len(top) < k:
			top = append(top, h)
			for i := len(top) - 1; i > 0; {
				p := (i - 1) / 2
				if !worse(i, p) {
					break
				}
				top[i], top[p] = top[p], top[i]
				i = p
			}
		case before(h, top[0]) < 0:
			top[0] = h
			for i := 0; ; {
				w, l, r := i, 2*i+1, 2*i+2
				if l < len(top) && worse(l, w) {
					w = l
				}
				if r < len(top) && worse(r, w) {
					w = r
				}
				if w == i {
					break
				}
				top[i], top[w] = top[w], top[i]
				i = w
			}
		}
	}
	slices.SortFunc(top, before)
	return top
}

// Files calls fn with each path commit i changed (its newest name), and
// the number of them.
func (h *History) Files(i int, fn func(path string, n int)) {
	c := &h.commits[i]
	for _, f := range c.files {
		fn(h.paths[f], len(c.files))
	}
}

// Commit returns a commit's hash (hex) and time in Unix seconds.
func (h *History) Commit(i int) (hash string, time int64) {
	return fmt.Sprintf("%x", h.commits[i].hash), h.commits[i].time
}

// hasCommit reports whether the history holds the commit with hash hex.
func (h *History) hasCommit(hash []byte) bool {
	for _, c := range h.commits {
		if bytes.Equal(c.hash, hash) {
			return true
		}
	}
	return false
}
