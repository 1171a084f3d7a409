package telescope

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutsideRoot is returned for a path that leaves the root, by ".." or through a symbolic
// link.
var ErrOutsideRoot = errors.New("outside the root")

// resolve maps a path argument, relative to root or absolute inside it, to the existing file
// or directory it names, as a slash-separated path relative to root ("." for root itself).
// root must be absolute with its symbolic links resolved. A path that leaves root, by ".."
// or through a symbolic link, is refused with ErrOutsideRoot.
func resolve(root, arg string) (rel string, isDir bool, err error) {
	p := strings.TrimSpace(arg)
	if p == "" {
		p = "."
	}
	if strings.ContainsRune(p, 0) {
		return "", false, fmt.Errorf("path %q holds a NUL byte", arg)
	}
	full := filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, full)
	}
	if !inside(root, full) {
		return "", false, fmt.Errorf("path %q: %w %s", arg, ErrOutsideRoot, root)
	}
	real, err := filepath.EvalSymlinks(full)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, fmt.Errorf("path %q does not exist under %s", arg, root)
	}
	if err != nil {
		return "", false, fmt.Errorf("path %q: %w", arg, err)
	}
	if !inside(root, real) {
		return "", false, fmt.Errorf("path %q leads through a symbolic link to %s: %w %s", arg, real, ErrOutsideRoot, root)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", false, fmt.Errorf("path %q: %w", arg, err)
	}
	r, err := filepath.Rel(root, real)
	if err != nil {
		return "", false, fmt.Errorf("path %q: %w", arg, err)
	}
	return filepath.ToSlash(r), fi.IsDir(), nil
}

// inside reports whether the clean absolute path p is root or below it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readInside reads the file at rel (slash-separated, relative to root) after checking that
// neither rel nor any symbolic link on its way leaves root: a node may come from a store that
// others write to, so its path is not trusted.
func readInside(root, rel string) ([]byte, error) {
	if rel == "" || filepath.IsAbs(filepath.FromSlash(rel)) || strings.ContainsRune(rel, 0) {
		return nil, fmt.Errorf("path %q: %w %s", rel, ErrOutsideRoot, root)
	}
	full := filepath.Join(root, filepath.FromSlash(rel))
	if !inside(root, full) {
		return nil, fmt.Errorf("path %q: %w %s", rel, ErrOutsideRoot, root)
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	if !inside(root, real) {
		return nil, fmt.Errorf("path %q leads through a symbolic link to %s: %w %s", rel, real, ErrOutsideRoot, root)
	}
	b, err := os.ReadFile(real)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return b, nil
}
