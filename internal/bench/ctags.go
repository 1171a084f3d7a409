package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/winnowhq/winnow/internal/index"
)

const installCtags = "install Universal Ctags (apt-get install universal-ctags) or point --ctags at it"

// checkCtags resolves the ctags program and makes sure it is Universal
// Ctags: Exuberant Ctags and Emacs' ctags take other flags and parse
// less, so a comparison against them would mislead. It returns the
// absolute path and the version line.
func checkCtags(ctx context.Context, prog string) (path, version string, err error) {
	path, err = exec.LookPath(prog)
	if err != nil {
		return "", "", fmt.Errorf("ctags: %w; %s", err, installCtags)
	}
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil && len(out) == 0 {
		return "", "", fmt.Errorf("%s --version: %w; %s", path, err, installCtags)
	}
	version, _, _ = strings.Cut(string(out), "\n")
	version = strings.TrimSpace(version)
	if !strings.HasPrefix(version, "Universal Ctags") {
		return "", "", fmt.Errorf("%s is not Universal Ctags (it says %q); %s", path, version, installCtags)
	}
	if v, _, ok := strings.Cut(version, ","); ok {
		version = v
	}
	return path, version, nil
}

// fileList is the set of files one winnow run indexed, as ctags reads
// it with -L.
type fileList struct {
	path  string // the list file, one path per line, relative to the root
	files int
	bytes int64
}

// writeFileList writes the files the index holds, leaving out the ones
// it skipped for their content, to path.
func writeFileList(ctx context.Context, opts index.Options, path string) (fileList, error) {
	ix, err := index.Open(ctx, opts)
	if err != nil {
		return fileList{}, err
	}
	defer ix.Close()
	files, err := ix.Files(ctx, "")
	if err != nil {
		return fileList{}, err
	}
	l := fileList{path: path}
	var b bytes.Buffer
	for _, f := range files {
		if f.Skip != "" {
			continue
		}
		if strings.ContainsAny(f.Path, "\n\r") {
			return fileList{}, fmt.Errorf("file list: %q holds a line break, which ctags -L cannot read", f.Path)
		}
		b.WriteString(f.Path)
		b.WriteByte('\n')
		l.files++
		l.bytes += f.Size
	}
	if l.files == 0 {
		return fileList{}, errors.New("file list: the index holds no files")
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fileList{}, fmt.Errorf("file list: %w", err)
	}
	return l, nil
}

// tagCount is what a tags file holds.
type tagCount struct {
	tags, files int
}

// countTags reads a ctags tags file: its entries, and the distinct files
// they are in.
func countTags(path string) (tagCount, error) {
	f, err := os.Open(path)
	if err != nil {
		return tagCount{}, fmt.Errorf("read tags: %w", err)
	}
	defer f.Close()
	files := make(map[string]bool)
	var c tagCount
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.HasPrefix(line, []byte("!_")) {
			continue // pseudo-tags describing the file
		}
		fields := bytes.SplitN(line, []byte{'\t'}, 3)
		if len(fields) < 3 {
			continue
		}
		c.tags++
		files[string(fields[1])] = true
	}
	if err := sc.Err(); err != nil {
		return tagCount{}, fmt.Errorf("read tags %s: %w", path, err)
	}
	c.files = len(files)
	return c, nil
}
