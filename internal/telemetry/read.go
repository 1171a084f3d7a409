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

// Scan reads the gateway's events from r, one JSON object per line, and
// calls fn for each; see ScanAll.
func Scan(r io.Reader, fn func(Event)) (skipped int, err error) {
	return ScanAll(r, fn, nil)
}

// ScanAll reads events from r, one JSON object per line, and calls tool for
// each gateway Event and proxy for each ProxyEvent; a nil function ignores
// its kind. Blank lines are ignored; lines that do not decode as either (a
// line cut short by a crash, say) are skipped and counted.
func ScanAll(r io.Reader, tool func(Event), proxy func(ProxyEvent)) (skipped int, err error) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 && !dispatch(line, tool, proxy) {
			skipped++
		}
		if errors.Is(err, io.EOF) {
			return skipped, nil
		}
		if err != nil {
			return skipped, err
		}
	}
}

// kindKey is how a member named kind starts. Inside a JSON string a quote is escaped, so a
// line without these bytes has no kind member at any depth: a gateway Event.
var kindKey = []byte(`"kind"`)

// dispatch decodes one line and hands it to the function of its kind,
// reporting whether it was an event. Each line is decoded once, as the
// event it must be if it is one, and again only when that is not settled.
func dispatch(line []byte, tool func(Event), proxy func(ProxyEvent)) bool {
	kind := ""
	if bytes.Contains(line, kindKey) {
		var pe ProxyEvent
		if json.Unmarshal(line, &pe) == nil && pe.Kind == KindProxy {
			if pe.Time.IsZero() {
				return false
			}
			if proxy != nil {
				proxy(pe)
			}
			return true
		}
		var head struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(line, &head) != nil {
			return false
		}
		kind = head.Kind
	}
	if kind != "" {
		return false // a kind this winnow does not know
	}
	var ev Event
	if json.Unmarshal(line, &ev) != nil || ev.Time.IsZero() || ev.Tool == "" {
		return false
	}
	if tool != nil {
		tool(ev)
	}
	return true
}

// ScanFile reads the events of the telemetry file at path (see ScanAll):
// first those of the rotated file path+RotatedSuffix, if there is one, then
// those of path. It returns the files it read. A missing path is an error
// wrapping fs.ErrNotExist.
func ScanFile(path string, tool func(Event), proxy func(ProxyEvent)) (files []string, skipped int, err error) {
	for _, p := range []string{path + RotatedSuffix, path} {
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) && p != path {
			continue
		}
		if err != nil {
			return files, skipped, fmt.Errorf("read telemetry: %w", err)
		}
		n, err := ScanAll(f, tool, proxy)
		f.Close()
		skipped += n
		if err != nil {
			return files, skipped, fmt.Errorf("read telemetry %s: %w", p, err)
		}
		files = append(files, p)
	}
	return files, skipped, nil
}
