//go:build !linux

package index

import "os"

// mapFile reads the file: mapping is only used on Linux. See MapCorpus.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }
