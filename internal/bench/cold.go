package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/winnowhq/winnow/internal/index"
)

// Cold is the cold index of a tree: winnow against ctags over the same
// files, and ctags -R over the whole tree for reference.
type Cold struct {
	Files   int   `json:"files"` // files winnow indexed, which ctags -L reads too
	Bytes   int64 `json:"bytes"` // their size
	Skipped int   `json:"skipped"`
	Symbols int   `json:"symbols"`
	Refs    int   `json:"refs"`
	Tags    int   `json:"ctags_tags"` // entries ctags -L wrote for the same files

	Winnow ProcStats `json:"winnow"`
	Ctags  ProcStats `json:"ctags"`
	// WallRatio and CPURatio are winnow's median over ctags' median.
	WallRatio float64 `json:"wall_ratio"`
	CPURatio  float64 `json:"cpu_ratio"`

	// Quick is winnow index --quick from nothing: the quick tier alone
	// (the fast scanner, no parse), what a first query answers from;
	// QuickSymbols and QuickRefs what it found. Its ratios are to ctags
	// and, QuickOfFull, its CPU to the full tier's.
	Quick          ProcStats `json:"quick"`
	QuickSymbols   int       `json:"quick_symbols"`
	QuickRefs      int       `json:"quick_refs"`
	QuickWallRatio float64   `json:"quick_wall_ratio"`
	QuickCPURatio  float64   `json:"quick_cpu_ratio"`
	QuickOfFull    float64   `json:"quick_cpu_of_full"`

	CtagsR CtagsR `json:"ctags_r"`
}

// ProcStats summarise the cold runs of one tool. Throughput is at the
// median wall time.
type ProcStats struct {
	Wall        Durations `json:"wall"`
	CPU         Durations `json:"cpu"`
	RSS         Sizes     `json:"peak_rss"`          // the process's own
	SubRSS      Sizes     `json:"peak_rss_children"` // of the processes it ran (git log), when above its own; CPU includes theirs
	FilesPerSec float64   `json:"files_per_sec"`
	MBPerSec    float64   `json:"mb_per_sec"`
}

func (p *ProcStats) throughput(files int, bytes int64) {
	s := float64(p.Wall.P50) / 1e9
	p.FilesPerSec = ratio(float64(files), s)
	p.MBPerSec = ratio(float64(bytes)/1e6, s)
}

// CtagsR is one run of ctags -R over the whole tree, on files it chose.
type CtagsR struct {
	Wall  Millis `json:"wall_ms"`
	CPU   Millis `json:"cpu_ms"`
	RSSKB int64  `json:"peak_rss_kb"`
	Files int    `json:"files"`
	Tags  int    `json:"tags"`
}

// cold times cold index builds, winnow and ctags interleaved.
func (b *treeBench) cold(ctx context.Context) (Cold, error) {
	var c Cold
	var err error
	b.logf("ctags -R over the whole tree (reference; warms the page cache)")
	if c.CtagsR, err = b.ctagsR(ctx); err != nil {
		return c, err
	}
	var list fileList
	var winnow, ctags, quick []procRun
	tags := filepath.Join(b.work, "tags")
	for i := range b.opts.Runs {
		b.logf("cold %d/%d: winnow index", i+1, b.opts.Runs)
		var flags []string
		if i == 0 && b.profile != "" {
			flags = []string{"--cpuprofile", b.profile}
		}
		st, r, err := b.winnowCold(ctx, flags...)
		if err != nil {
			return c, err
		}
		winnow = append(winnow, r)
		if i == 0 {
			if list, err = writeFileList(ctx, b.ix, filepath.Join(b.work, "files")); err != nil {
				return c, err
			}
			c.Files, c.Bytes, c.Skipped, c.Symbols, c.Refs = list.files, list.bytes, st.SkippedTotal(), st.Symbols, st.Refs
		}
		b.logf("cold %d/%d: ctags -L (the same %d files)", i+1, b.opts.Runs, list.files)
		if r, err = runProc(ctx, b.root, b.opts.Ctags, "-L", list.path, "-f", tags); err != nil {
			return c, err
		}
		ctags = append(ctags, r)
		b.logf("cold %d/%d: winnow index --quick", i+1, b.opts.Runs)
		qst, r, err := b.winnowQuick(ctx)
		if err != nil {
			return c, err
		}
		quick = append(quick, r)
		c.QuickSymbols, c.QuickRefs = qst.Symbols, qst.Refs
	}
	tc, err := countTags(tags)
	if err != nil {
		return c, err
	}
	c.Tags = tc.tags
	c.Winnow, c.Ctags = procStats(winnow), procStats(ctags)
	c.Winnow.throughput(c.Files, c.Bytes)
	c.Ctags.throughput(c.Files, c.Bytes)
	c.WallRatio = ratio(float64(c.Winnow.Wall.P50), float64(c.Ctags.Wall.P50))
	c.CPURatio = ratio(float64(c.Winnow.CPU.P50), float64(c.Ctags.CPU.P50))
	c.Quick = procStats(quick)
	c.Quick.throughput(c.Files, c.Bytes)
	c.QuickWallRatio = ratio(float64(c.Quick.Wall.P50), float64(c.Ctags.Wall.P50))
	c.QuickCPURatio = ratio(float64(c.Quick.CPU.P50), float64(c.Ctags.CPU.P50))
	c.QuickOfFull = ratio(float64(c.Quick.CPU.P50), float64(c.Winnow.CPU.P50))
	return c, nil
}

// winnowQuick builds the quick tier from nothing (winnow index --quick)
// into an index directory of its own, and returns the summary it printed.
func (b *treeBench) winnowQuick(ctx context.Context) (*index.Stats, procRun, error) {
	dir := b.ix.Dir + "-quick"
	if err := os.RemoveAll(dir); err != nil {
		return nil, procRun{}, err
	}
	args := append([]string{}, b.opts.WinnowArgs...)
	args = append(args, "index", "--json", "--quick", "--index-dir", dir, b.root)
	r, err := runProc(ctx, b.root, b.opts.Winnow, args...)
	if err != nil {
		return nil, r, err
	}
	var st index.Stats
	if err := json.Unmarshal(r.stdout, &st); err != nil {
		return nil, r, fmt.Errorf("read the summary of winnow index --quick: %w", err)
	}
	if st.Tier != index.TierQuick {
		return nil, r, fmt.Errorf("winnow index --quick built the %s tier of %s", st.Tier, b.root)
	}
	return &st, r, nil
}

// winnowCold builds the index from nothing with the winnow binary, into
// an empty index directory, with flags added, and returns the summary it
// printed.
func (b *treeBench) winnowCold(ctx context.Context, flags ...string) (*index.Stats, procRun, error) {
	if err := os.RemoveAll(b.ix.Dir); err != nil {
		return nil, procRun{}, err
	}
	r, err := b.winnowIndex(ctx, append([]string{"--rebuild"}, flags...)...)
	if err != nil {
		return nil, r, err
	}
	var st index.Stats
	if err := json.Unmarshal(r.stdout, &st); err != nil {
		return nil, r, fmt.Errorf("read the summary of winnow index: %w", err)
	}
	if st.Files == 0 {
		return nil, r, fmt.Errorf("winnow indexed no files under %s", b.root)
	}
	return &st, r, nil
}

// winnowIndex runs `winnow index --json` on the tree into the bench's
// index directory.
func (b *treeBench) winnowIndex(ctx context.Context, flags ...string) (procRun, error) {
	args := append([]string{}, b.opts.WinnowArgs...)
	args = append(args, "index", "--json", "--index-dir", b.ix.Dir)
	args = append(args, flags...)
	return runProc(ctx, b.root, b.opts.Winnow, append(args, b.root)...)
}

func (b *treeBench) ctagsR(ctx context.Context) (CtagsR, error) {
	tags := filepath.Join(b.work, "tags-R")
	r, err := runProc(ctx, b.root, b.opts.Ctags, "-R", "-f", tags, ".")
	if err != nil {
		return CtagsR{}, err
	}
	tc, err := countTags(tags)
	if err != nil {
		return CtagsR{}, err
	}
	return CtagsR{Wall: Millis(r.wall), CPU: Millis(r.cpu), RSSKB: r.rssKB, Files: tc.files, Tags: tc.tags}, nil
}
