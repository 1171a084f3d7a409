package index

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only, its pages populated up front
// (one system call instead of a fault per 64 KB). See MapCorpus.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size == 0 || size != int64(int(size)) {
		return os.ReadFile(path) // nothing to map, or too large to: DecodeCorpus says what is wrong
	}
	buf, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	return buf, nil
}
