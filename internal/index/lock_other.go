//go:build !unix

package index

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// fileLock is a lock file created exclusively. Unlike the Unix flock it
// survives a crash; a lock older than staleLock is taken over.
type fileLock struct{ name string }

const staleLock = 10 * time.Minute

func lockFile(name string, wait bool) (*fileLock, error) {
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return &fileLock{name: name}, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
		if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(name)
			continue
		}
		if !wait {
			return nil, errLocked
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (l *fileLock) unlock() error { return os.Remove(l.name) }
