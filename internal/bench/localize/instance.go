package localize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// An Instance is one record of the dataset: an issue, the commit it was
// filed against, and what its fix edited.
type Instance struct {
	ID               string   `json:"instance_id"`
	Repo             string   `json:"repo"` // owner/name
	BaseCommit       string   `json:"base_commit"`
	ProblemStatement string   `json:"problem_statement"`
	GoldFiles        []string `json:"gold_files"`      // may name a file the fix added
	EditFunctions    []string `json:"edit_functions"`  // the gold functions, path.py:Qual.name
	AddedFunctions   []string `json:"added_functions"` // created by the fix: not gold
}

// maxLine bounds one JSONL record; the longest issue text in the dataset
// is far below it.
const maxLine = 64 << 20

// LoadInstances reads a JSONL dataset, one instance per line; blank lines
// are skipped. Errors name the file and line.
func LoadInstances(path string) ([]Instance, error) {
	var ins []Instance
	seen := make(map[string]int)
	err := readLines(path, func(n int, line []byte) error {
		var in Instance
		if err := json.Unmarshal(line, &in); err != nil {
			return err
		}
		if err := in.validate(); err != nil {
			return err
		}
		if first, ok := seen[in.ID]; ok {
			return fmt.Errorf("instance %s already on line %d", in.ID, first)
		}
		seen[in.ID] = n
		ins = append(ins, in)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ins, nil
}

func (in *Instance) validate() error {
	switch {
	case in.ID == "":
		return errors.New("no instance_id")
	case strings.Count(in.Repo, "/") != 1 || strings.HasPrefix(in.Repo, "/") || strings.HasSuffix(in.Repo, "/"):
		return fmt.Errorf("instance %s: repo %q is not owner/name", in.ID, in.Repo)
	case in.BaseCommit == "":
		return fmt.Errorf("instance %s: no base_commit", in.ID)
	}
	for _, f := range in.EditFunctions {
		if _, _, ok := splitID(f); !ok {
			return fmt.Errorf("instance %s: edit function %q is not path:name", in.ID, f)
		}
	}
	return nil
}

// TreeDir is the directory that holds in's source tree under reposDir:
// <reposDir>/<owner>__<name>@<base_commit>, as bench/localize/prepare.sh
// writes it.
func TreeDir(reposDir string, in Instance) string {
	return filepath.Join(reposDir, strings.Replace(in.Repo, "/", "__", 1)+"@"+in.BaseCommit)
}

// Exists reports whether path, relative to the repository root, exists in
// in's tree at its base commit. An error means the question cannot be
// answered, such as a tree that was never prepared.
type Exists func(in Instance, path string) (bool, error)

// TreeExists answers Exists from the trees prepared under reposDir. A
// missing tree is an error, not a tree without the file: a wrong --repos
// would otherwise drop every instance from the file metrics.
func TreeExists(reposDir string) Exists {
	return func(in Instance, path string) (bool, error) {
		dir := TreeDir(reposDir, in)
		if _, err := os.Stat(filepath.Join(dir, preparedMarker)); err != nil {
			return false, fmt.Errorf("tree of %s: %w (run bench/localize/prepare.sh)", in.ID, err)
		}
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path)))
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, os.ErrNotExist):
			return false, nil
		}
		return false, err
	}
}

// preparedMarker is the file prepare.sh writes last into a complete tree.
const preparedMarker = ".prepared"

// readLines calls fn with each non-blank line of the file at path and its
// 1-based number, and prefixes fn's errors with path:line.
func readLines(path string, fn func(n int, line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxLine)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", path, n+1, err)
	}
	return nil
}
