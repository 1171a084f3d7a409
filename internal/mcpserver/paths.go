package mcpserver

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A repoPath is a path argument resolved inside the repository.
type repoPath struct {
	rel   string // slash-separated, relative to the root; "." for the root
	isDir bool
}

// resolvePath maps a path argument, relative to the repository root or
// absolute inside it, to the existing file or directory it names. It
// refuses paths that leave the root, by ".." or through a symbolic link,
// with a message saying what to pass instead.
func resolvePath(root, arg string) (repoPath, error) {
	p := strings.TrimSpace(arg)
	if p == "" {
		return repoPath{}, fixable(`the path is empty: give a file or directory relative to the repository root, e.g. "src/server.py", or "." for the whole repository`)
	}
	if strings.ContainsRune(p, 0) {
		return repoPath{}, fixable("the path %q holds a NUL byte: give a file or directory relative to the repository root", arg)
	}
	full := filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, full)
	}
	if !inside(root, full) {
		return repoPath{}, outsideRoot(arg, root)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return repoPath{}, err
	}
	real, err := filepath.EvalSymlinks(full)
	if errors.Is(err, fs.ErrNotExist) {
		return repoPath{}, fixable(`%q does not exist in the repository (paths are relative to its root, %s). Call outline with "." to see the indexed files, or find_symbol to find where a definition lives`, arg, root)
	}
	if err != nil {
		return repoPath{}, fixable("cannot read %q: %v", arg, err)
	}
	if !inside(realRoot, real) {
		return repoPath{}, fixable("%q leads through a symbolic link to %s, outside the repository %s; winnow only reads files inside the repository", arg, real, root)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return repoPath{}, fixable("cannot read %q: %v", arg, err)
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil {
		return repoPath{}, err
	}
	return repoPath{rel: filepath.ToSlash(rel), isDir: fi.IsDir()}, nil
}

// inside reports whether the clean absolute path p is root or below it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func outsideRoot(arg, root string) error {
	return fixable(`%q is outside the repository %s: give a path relative to its root, e.g. "src/server.py", or "." for the whole repository`, arg, root)
}
