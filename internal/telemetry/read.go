package telemetry

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Scan reads events from r, one JSON object per line, and calls fn for each.
// Blank lines are ignored; lines that do not decode as an Event (a line cut
// short by a crash, say) are skipped and counted.
func Scan(r io.Reader, fn func(Event)) (skipped int, err error) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			var ev Event
			if json.Unmarshal(line, &ev) != nil || ev.Time.IsZero() || ev.Tool == "" {
				skipped++
			} else {
				fn(ev)
			}
		}
		if errors.Is(err, io.EOF) {
			return skipped, nil
		}
		if err != nil {
			return skipped, err
		}
	}
}

// ScanFile reads the events of the telemetry file at path: first those of
// the rotated file path+RotatedSuffix, if there is one, then those of path.
// It returns the files it read. A missing path is an error wrapping
// fs.ErrNotExist.
func ScanFile(path string, fn func(Event)) (files []string, skipped int, err error) {
	for _, p := range []string{path + RotatedSuffix, path} {
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) && p != path {
			continue
		}
		if err != nil {
			return files, skipped, fmt.Errorf("read telemetry: %w", err)
		}
		n, err := Scan(f, fn)
		f.Close()
		skipped += n
		if err != nil {
			return files, skipped, fmt.Errorf("read telemetry %s: %w", p, err)
		}
		files = append(files, p)
	}
	return files, skipped, nil
}
