//go:build unix

package index

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// fileLock is an advisory lock on a file, held by one process (or one
// Index) at a time. The kernel releases it when the process dies, so a
// crashed writer never leaves the index locked.
type fileLock struct{ f *os.File }

// lockFile takes the lock at name. With wait it blocks until the lock
// is free; without, it fails with errLocked when another holder has it.
func lockFile(name string, wait bool) (*fileLock, error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	return &fileLock{f: f}, nil
}

func (l *fileLock) unlock() error {
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	return l.f.Close()
}
