package telescope

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Reasons a file is left out of a telescope.
const (
	SkipBinary       = "binary"          // NUL bytes in its first 8 KiB
	SkipInvalidUTF8  = "invalid_utf8"    // not UTF-8 text
	SkipTooLarge     = "too_large"       // over Options.MaxFileBytes
	SkipSymlink      = "symlink"         // a link to a file inside the root, read under its own path
	SkipSymlinkOut   = "symlink_outside" // a link leading out of the root
	SkipUnreadable   = "unreadable"      // permission denied, I/O error
	SkipVendored     = "vendored"        // under vendor/, node_modules/ and the like
	SkipUnsupported  = "unsupported"     // no strategy reads files of this type
	skipHeadBytes    = 8 << 10
	maxSkipsRecorded = 200
)

// skippedDirs are never read: version control, winnow's own files, and third-party code a
// repository carries but does not own.
var skippedDirs = []string{
	".git", ".hg", ".svn", ".winnow", "vendor", "node_modules", "third_party", "third-party",
	"bower_components", ".venv", "venv", "site-packages", "__pycache__", ".tox",
}

// A Skip is a file left out, and why.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// listing is what a walk of the build path found.
type listing struct {
	units   []*Unit
	skipped map[string]int
	skips   []Skip // the first maxSkipsRecorded skips other than unsupported files
}

func (l *listing) skip(p, reason string) {
	l.skipped[reason]++
	if reason != SkipUnsupported && reason != SkipVendored && len(l.skips) < maxSkipsRecorded {
		l.skips = append(l.skips, Skip{Path: p, Reason: reason})
	}
}

// list reads the units under rel (a file or a directory, relative to root), in path order.
func (e *Engine) list(ctx context.Context, rel string, isDir bool) (*listing, error) {
	l := &listing{skipped: make(map[string]int)}
	var paths []string
	if !isDir {
		paths = []string{rel}
	} else {
		var err error
		if paths, err = gitFiles(ctx, e.root, rel); err != nil {
			if paths, err = walkFiles(ctx, e.root, rel); err != nil {
				return nil, err
			}
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	units, reasons := make([]*Unit, len(paths)), make([]string, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(e.workers, max(len(paths), 1)) {
		wg.Add(1)
		go func() { // reading and hashing in parallel: a warm build is mostly this
			defer wg.Done()
			for i := range next {
				units[i], reasons[i] = e.read(paths[i])
			}
		}()
	}
feed:
	for i := range paths {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, p := range paths {
		if reasons[i] != "" {
			l.skip(p, reasons[i])
		} else if units[i] != nil {
			l.units = append(l.units, units[i])
		}
	}
	return l, nil
}

// read reads and classifies one file; it returns a reason instead when the file is left out,
// and neither for a file that vanished or is not a regular file.
func (e *Engine) read(p string) (*Unit, string) {
	for _, d := range strings.Split(path.Dir(p), "/") {
		if slices.Contains(skippedDirs, d) {
			return nil, SkipVendored
		}
	}
	kind, format, ok := classify(p)
	if !ok {
		return nil, SkipUnsupported
	}
	full := filepath.Join(e.root, filepath.FromSlash(p))
	fi, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, ""
	case err != nil:
		return nil, SkipUnreadable
	case fi.Mode()&fs.ModeSymlink != 0:
		real, err := filepath.EvalSymlinks(full)
		if err != nil || !inside(e.root, real) {
			return nil, SkipSymlinkOut
		}
		return nil, SkipSymlink
	case !fi.Mode().IsRegular():
		return nil, ""
	case fi.Size() > e.maxBytes:
		return nil, SkipTooLarge
	}
	content, err := os.ReadFile(full)
	if err != nil {
		return nil, SkipUnreadable
	}
	if bytes.IndexByte(content[:min(len(content), skipHeadBytes)], 0) >= 0 {
		return nil, SkipBinary
	}
	if !utf8.Valid(content) {
		return nil, SkipInvalidUTF8
	}
	sum := sha256.Sum256(content)
	return &Unit{Path: p, Kind: kind, Lang: format, Content: content, Hash: hex.EncodeToString(sum[:]), symbols: e.symbols}, ""
}

// gitFiles lists the files under rel that git tracks or would track (untracked files not
// ignored), relative to root. It fails outside a git work tree.
func gitFiles(ctx context.Context, root, rel string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", rel)
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// walkFiles lists the files under rel outside git, skipping hidden and skipped directories,
// and never following symbolic links to directories.
func walkFiles(ctx context.Context, root, rel string) ([]string, error) {
	var paths []string
	start := filepath.Join(root, filepath.FromSlash(rel))
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			return nil // unreadable entries are not ours to report one by one
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != start && (strings.HasPrefix(name, ".") || slices.Contains(skippedDirs, name)) {
				return filepath.SkipDir
			}
			return nil
		}
		r, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		paths = append(paths, filepath.ToSlash(r))
		return nil
	})
	return paths, err
}
