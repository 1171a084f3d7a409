package telescope

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/index"
)

// Reasons a file is left out of a telescope.
const (
	SkipBinary       = "binary"          // NUL bytes in its first 8 KiB
	SkipInvalidUTF8  = "invalid_utf8"    // not UTF-8 text
	SkipTooLarge     = "too_large"       // over Options.MaxFileBytes
	SkipSymlink      = "symlink"         // a link to a file inside the root, read under its own path
	SkipSymlinkOut   = "symlink_outside" // a link leading out of the root
	SkipUnreadable   = "unreadable"      // permission denied, I/O error
	SkipVendored     = "vendored"        // under vendor/, node_modules/ and the like (index.Vendored)
	SkipUnsupported  = "unsupported"     // no strategy reads files of this type
	skipHeadBytes    = 8 << 10
	maxSkipsRecorded = 200
)

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
// It finds them as an index build does (git's view of the tree, or a walk honouring
// .gitignore), so a telescope and the code index agree on what the repository holds.
func (e *Engine) list(ctx context.Context, rel string, isDir bool) (*listing, error) {
	l := &listing{skipped: make(map[string]int)}
	var paths []string
	if !isDir {
		paths = []string{rel}
	} else {
		all, err := index.ListFiles(ctx, e.root)
		if err != nil {
			return nil, err
		}
		paths = under(all, rel)
	}
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
	if index.Vendored(p) {
		return nil, SkipVendored
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

// under returns the sorted paths that lie under the directory rel ("." for the root).
func under(paths []string, rel string) []string {
	if rel == "." || rel == "" {
		return paths
	}
	prefix := rel + "/"
	lo, _ := slices.BinarySearch(paths, prefix)
	hi := lo
	for hi < len(paths) && strings.HasPrefix(paths[hi], prefix) {
		hi++
	}
	return paths[lo:hi]
}
