package index

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/lang"
)

// alwaysSkippedDirs are never descended into: version-control metadata
// and winnow's own directory.
var alwaysSkippedDirs = []string{".git", ".hg", ".svn", ".winnow"}

// vendoredDirs hold third-party code that a repository carries but does
// not own; they are skipped unless Options.IncludeVendored is set.
var vendoredDirs = []string{
	"vendor", "node_modules", "third_party", "third-party", "3rdparty", "bower_components",
	"extern", "external", "cextern", "Pods", "Carthage", ".venv", "venv", "site-packages",
	"__pycache__", ".tox",
}

// candidate is a file the listing found that may be indexed.
type candidate struct {
	path  string // slash-separated, relative to the root
	lang  *lang.Language
	size  int64
	mtime int64 // nanoseconds
}

// lister finds the files of a tree and counts the ones it skips by path.
type lister struct {
	root    string
	opts    *Options
	exclude ignoreSet
	skipped map[Reason]int
	reused  bool // git's listing was the remembered one (listing.go)
}

func newLister(root string, opts *Options) *lister {
	l := &lister{root: root, opts: opts, skipped: make(map[Reason]int)}
	l.exclude.add("", []byte(strings.Join(opts.Exclude, "\n")))
	return l
}

// list returns the candidate files under the root, sorted by path. Inside
// a git work tree it asks git (tracked files and untracked files that are
// not ignored), or takes git's last answer when nothing it depends on
// changed since (listing.go); elsewhere it walks the tree honouring
// .gitignore files.
func (l *lister) list(ctx context.Context) ([]candidate, error) {
	paths, err := l.gitFiles(ctx)
	if err != nil {
		paths, err = l.walk(ctx)
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	// The rules by path first, then the stat of the files they keep (the
	// system call per file of every update, 1,531 on sympy, about half
	// the CPU of its listing), shared among the workers.
	var out []candidate
	for _, p := range paths {
		if c, ok := l.byPath(p); ok {
			out = append(out, c)
		}
	}
	reasons := make([]Reason, len(out))
	var wg sync.WaitGroup
	workers := max(1, min(l.opts.Workers, len(out)/statsPerWorker+1))
	for w := range workers {
		wg.Go(func() {
			for i := w * len(out) / workers; i < (w+1)*len(out)/workers; i++ {
				if ctx.Err() != nil {
					return
				}
				reasons[i] = l.stat(&out[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kept := out[:0]
	for i, c := range out {
		if l.keep(reasons[i]) {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// statsPerWorker is the fewest files a stat worker of the listing takes
// on: fewer are not worth a goroutine.
const statsPerWorker = 256

// consider applies the path-based rules to one file and stats it. Files
// that vanished since they were listed are dropped without a count.
func (l *lister) consider(p string) (candidate, bool) {
	c, ok := l.byPath(p)
	if !ok || !l.keep(l.stat(&c)) {
		return candidate{}, false
	}
	return c, true
}

// byPath applies the rules by path and language to one file, counting
// the ones it skips; the candidate it returns has no stat yet.
func (l *lister) byPath(p string) (candidate, bool) {
	if reason, skip := l.pathReason(p); skip {
		l.count(reason)
		return candidate{}, false
	}
	lg := lang.ForPath(p)
	if lg == nil {
		l.count(ReasonNoGrammar)
		return candidate{}, false
	}
	if len(l.opts.Languages) > 0 && !slices.Contains(l.opts.Languages, lg.Name) {
		l.count(ReasonLanguage)
		return candidate{}, false
	}
	return candidate{path: p, lang: lg}, true
}

// reasonGone is stat's verdict on a file that is not there to index: it
// vanished since it was listed, or it is not a regular file (a
// submodule, a socket). Such files are not counted as skipped.
const reasonGone Reason = "-"

// stat fills in the size and modification time of c, or says why it is
// skipped: "" for a file to index. It is safe for concurrent use.
func (l *lister) stat(c *candidate) Reason {
	fi, err := os.Lstat(filepath.Join(l.root, filepath.FromSlash(c.path)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return reasonGone
	case err != nil:
		return ReasonUnreadable
	case fi.Mode()&fs.ModeSymlink != 0:
		// The target, when it is inside the tree, is indexed under its
		// own path; a target outside the tree is not ours to read.
		return ReasonSymlink
	case !fi.Mode().IsRegular():
		return reasonGone // submodules, sockets, devices
	case fi.Size() > l.opts.MaxFileBytes:
		return ReasonTooLarge
	}
	c.size, c.mtime = fi.Size(), fi.ModTime().UnixNano()
	return ""
}

// keep reports whether stat's verdict r keeps its file, and counts the
// skip when it does not (a file gone is not counted).
func (l *lister) keep(r Reason) bool {
	if r != "" && r != reasonGone {
		l.count(r)
	}
	return r == ""
}

// pathReason says whether a path is skipped for where it is.
func (l *lister) pathReason(p string) (Reason, bool) {
	dirs := strings.Split(path.Dir(p), "/")
	for _, d := range dirs {
		if slices.Contains(alwaysSkippedDirs, d) {
			return ReasonExcluded, true
		}
	}
	if !l.opts.IncludeVendored {
		for _, d := range dirs {
			if slices.Contains(vendoredDirs, d) {
				return ReasonVendored, true
			}
		}
	}
	if l.exclude.matchPath(p) {
		return ReasonExcluded, true
	}
	if !l.opts.IncludeGenerated && generatedName(p) {
		return ReasonGenerated, true
	}
	return "", false
}

func (l *lister) count(r Reason) { l.skipped[r]++ }

// walk lists files outside git: a depth-first walk that never follows
// symbolic links, prunes ignored and vendored directories early, and
// reads each directory's .gitignore on the way down.
func (l *lister) walk(ctx context.Context) ([]string, error) {
	var ign ignoreSet
	var paths []string
	err := filepath.WalkDir(l.root, func(full string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		rel, relErr := filepath.Rel(l.root, full)
		if relErr != nil {
			return relErr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			l.count(ReasonUnreadable)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if rel == "." {
				ign.addFile("", filepath.Join(full, ".gitignore"))
				return nil
			}
			// A directory skipped whole counts once: walking a node_modules
			// only to count its files would cost more than indexing.
			name := d.Name()
			switch {
			case slices.Contains(alwaysSkippedDirs, name), ign.match(rel, true):
				return fs.SkipDir
			case !l.opts.IncludeVendored && slices.Contains(vendoredDirs, name):
				l.count(ReasonVendored)
				return fs.SkipDir
			case l.exclude.match(rel, true):
				l.count(ReasonExcluded)
				return fs.SkipDir
			}
			ign.addFile(rel, filepath.Join(full, ".gitignore"))
			return nil
		}
		if !ign.match(rel, false) {
			paths = append(paths, rel)
		}
		return nil
	})
	return paths, err
}

// gitListFiles lists the files git knows under root: tracked ones and
// untracked ones that are not ignored. It fails when root is not inside
// a git work tree or git is not installed.
func gitListFiles(ctx context.Context, root string) ([]string, error) {
	out, err := gitOutput(ctx, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	var paths []string
	for p := range bytes.SplitSeq(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	return paths, nil
}

// gitOutput runs git in root with args, leaving no lock files behind,
// and returns its standard output.
func gitOutput(ctx context.Context, root string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	return cmd.Output()
}

// ListFiles lists the files under root the way a build finds them, before
// any per-file rule: inside a git work tree, the files git tracks and the
// untracked ones it does not ignore; elsewhere, a walk that honours
// .gitignore files and prunes version-control and vendored directories.
// Paths are slash-separated, relative to root, sorted and unique.
func ListFiles(ctx context.Context, root string) ([]string, error) {
	paths, err := gitListFiles(ctx, root)
	if err != nil {
		if paths, err = newLister(root, &Options{}).walk(ctx); err != nil {
			return nil, err
		}
	}
	slices.Sort(paths)
	return slices.Compact(paths), nil
}

// Vendored reports whether the slash-separated path p lies under a
// version-control, winnow or vendored directory, which a build skips by
// default.
func Vendored(p string) bool {
	for _, d := range strings.Split(path.Dir(p), "/") {
		if slices.Contains(alwaysSkippedDirs, d) || slices.Contains(vendoredDirs, d) {
			return true
		}
	}
	return false
}
