//go:build unix

package index

import (
	"io/fs"
	"syscall"
)

// fileID is the inode of a file, which a file renamed over it changes.
func fileID(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
