package measure

import (
	"bytes"
	"fmt"
	"os"
	"time"
)

// A TouchedFile is a file of the user's tree that a benchmark changes
// and must give back exactly as it was: same bytes, same modification
// time. (The change time moves on; nothing can set it back.)
type TouchedFile struct {
	path  string
	orig  []byte
	mtime time.Time
}

// SaveFile remembers the file at path, a regular file, so that Restore can
// give it back.
func SaveFile(path string) (*TouchedFile, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if int64(len(orig)) != fi.Size() {
		return nil, fmt.Errorf("%s changed while it was read", path)
	}
	return &TouchedFile{path: path, orig: orig, mtime: fi.ModTime()}, nil
}

// Touch appends one newline: new content, still valid source.
func (t *TouchedFile) Touch() error {
	f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("touch: %w", err)
	}
	_, err = f.Write([]byte{'\n'})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("touch: %w", err)
	}
	return nil
}

// Restore gives the file its original bytes and modification time back.
// It undoes only its own change: content that is neither the original
// nor the touched one was written by someone else, and is left alone.
// It is safe to call any number of times.
func (t *TouchedFile) Restore() error {
	cur, err := os.ReadFile(t.path)
	if err != nil {
		return fmt.Errorf("restore %s: %w", t.path, err)
	}
	switch {
	case bytes.Equal(cur, t.orig):
	case len(cur) == len(t.orig)+1 && bytes.HasPrefix(cur, t.orig) && cur[len(t.orig)] == '\n':
		if err := os.Truncate(t.path, int64(len(t.orig))); err != nil {
			return fmt.Errorf("restore %s: %w", t.path, err)
		}
	default:
		return fmt.Errorf("restore %s: something else changed it during the benchmark; left as it is", t.path)
	}
	// A zero access time leaves it as it is.
	if err := os.Chtimes(t.path, time.Time{}, t.mtime); err != nil {
		return fmt.Errorf("restore %s: %w", t.path, err)
	}
	return nil
}

// Path returns the file's path.
func (t *TouchedFile) Path() string { return t.path }
