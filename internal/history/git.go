package history

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// errNoRepo means the tree is not inside a git work tree, or its HEAD
// has no commit yet: there is no history to read, which is not an error.
var errNoRepo = errors.New("no git history")

// git runs the git binary in one tree.
type git struct {
	bin  string
	root string
}

// run runs git with args and returns its standard output. A failure
// carries git's own message.
func (g *git) run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := g.command(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, gitError(args, err, stderr.Bytes())
	}
	return out, nil
}

func (g *git) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, g.bin, append([]string{"-C", g.root}, args...)...)
	// The tree's own repository, whatever the caller's environment says;
	// no lock files left behind by a reader.
	env := []string{"GIT_OPTIONAL_LOCKS=0", "LC_ALL=C"}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "GIT_DIR" && k != "GIT_WORK_TREE" && k != "GIT_INDEX_FILE" && k != "LC_ALL" {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	return cmd
}

func gitError(args []string, err error, stderr []byte) error {
	msg := strings.TrimSpace(string(bytes.ToValidUTF8(stderr, []byte("?"))))
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg != "" {
		return fmt.Errorf("git %s: %w: %s", args[0], err, msg)
	}
	return fmt.Errorf("git %s: %w", args[0], err)
}

// repo is the repository of a tree.
type repo struct {
	head string // HEAD's commit, hex
}

// open finds the repository of the tree and its HEAD. A tree that is
// not the top level of a work tree, or whose HEAD has no commit yet, is
// errNoRepo; a repository git cannot read is an error. Whether HEAD's
// commit can be read is left to readable, which only a history that
// must be read again needs.
func (g *git) open(ctx context.Context) (repo, error) {
	// One git for both questions (every update asks them): the prefix of
	// the tree in its work tree, then HEAD's commit, if it has one.
	cmd := g.command(ctx, "rev-parse", "--show-prefix", "-q", "--verify", "HEAD")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1 && stderr.Len() == 0) {
		if errors.As(err, &exit) && strings.Contains(stderr.String(), "not a git repository") {
			return repo{}, fmt.Errorf("%w: not in a git work tree", errNoRepo)
		}
		return repo{}, gitError([]string{"rev-parse"}, err, stderr.Bytes())
	}
	prefix, head, _ := strings.Cut(string(out), "\n")
	if prefix = strings.TrimSpace(prefix); prefix != "" {
		// A tree inside another repository (a fixture, a vendored copy,
		// one package of a monorepo) would get history that is not its
		// own.
		return repo{}, fmt.Errorf("%w: the tree is %s inside its repository, not its top level", errNoRepo, prefix)
	}
	if err != nil { // exit 1, nothing said: HEAD names no commit
		return repo{}, fmt.Errorf("%w: HEAD has no commit yet", errNoRepo)
	}
	return repo{head: strings.TrimSpace(head)}, nil
}

// headOf reads HEAD's commit from the files of root's own repository,
// root/.git, as git would (a loose ref, else packed-refs), without
// starting git: every update of the index asks, and finds the history at
// HEAD already (peek). ok is false for anything it does not read itself:
// .git a file (a linked work tree, a submodule), a ref it cannot find, a
// reference to a reference; git answers those.
func headOf(root string) (head string, ok bool) {
	dir := filepath.Join(root, ".git")
	b, err := os.ReadFile(filepath.Join(dir, "HEAD"))
	if err != nil {
		return "", false
	}
	s := strings.TrimSpace(string(b))
	ref, symbolic := strings.CutPrefix(s, "ref: ")
	if !symbolic {
		return s, isHash(s)
	}
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return "", false
	}
	if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref))); err == nil {
		s := strings.TrimSpace(string(b))
		return s, isHash(s)
	}
	packed, err := os.ReadFile(filepath.Join(dir, "packed-refs"))
	if err != nil {
		return "", false
	}
	for line := range strings.Lines(string(packed)) {
		hash, name, _ := strings.Cut(strings.TrimSpace(line), " ")
		if name == ref {
			return hash, isHash(hash)
		}
	}
	return "", false
}

// isHash reports whether s is a full object name, SHA-1 or SHA-256.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// readable fails unless HEAD names a commit git can read: otherwise the
// history is damaged, and its log would be too.
func (g *git) readable(ctx context.Context, r repo) error {
	if _, err := g.run(ctx, "cat-file", "-e", r.head+"^{commit}"); err != nil {
		return fmt.Errorf("HEAD %s is not a commit git can read: %w", r.head, err)
	}
	return nil
}

// isAncestor reports whether commit a is an ancestor of b (or b).
func (g *git) isAncestor(ctx context.Context, a, b string) bool {
	return g.command(ctx, "merge-base", "--is-ancestor", a, b).Run() == nil
}

// A commit as git log reports it: its message and the paths it changed,
// relative to the tree. renames maps an old path to the new one for the
// files it renamed.
type commit struct {
	hash    []byte
	time    int64
	message string
	paths   []string
	renames map[string]string
}

// recordStart opens every commit of the log, so that a commit is found
// again after a message or a path list of any shape.
const recordStart = "\x1e\x1fwinnow-commit "

// log reads the commits of HEAD's ancestry, newest first, stopping at
// (and leaving out) the commits reachable from since, or after max
// commits. Only HEAD is walked, never other refs: history that HEAD
// cannot reach is not the tree's past. A merge lists what it changed
// against its first parent, which for a pull request is the whole
// change; its side branch's commits are walked too.
//
// Renames are followed, exact ones only (-M100%: a file moved with its
// content unchanged, found by blob id, so no blob is read and a partial
// clone's log reads as well as a full one's). Renames by similarity
// (-M) would also find a file moved and edited in one commit, but they
// read and compare the blobs of every added and deleted file: on
// sympy's newest 20,000 commits -M found 2,885 renames for 2.3 s of
// git's CPU, -M100% 2,116 (73%) for 0.7 s, --no-renames none for 0.7 s.
// The dev set of bench/localize ranks as well either way (file
// Acc@1/5/10 equal; folds 187.3/185.7 with -M, 186.6/186.3 with
// -M100%), and the history is the costliest part of a cold index after
// the parse.
func (g *git) log(ctx context.Context, r repo, since string, max int, each func(*commit) error) error {
	args := []string{"log", "-z", "--name-status", "--diff-merges=first-parent", "-M100%",
		"--no-color", "--no-ext-diff", "--no-textconv",
		"-n", strconv.Itoa(max), "--format=" + "%x1e%x1fwinnow-commit %H %ct%n%B%x00", r.head}
	if since != "" {
		args = append(args, "^"+since)
	}
	cmd := g.command(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("git log: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git log: %w", err)
	}
	perr := parseLog(out, each)
	if perr != nil {
		io.Copy(io.Discard, out)
	}
	werr := cmd.Wait()
	if perr != nil {
		return perr
	}
	if werr != nil {
		return gitError(args, werr, stderr.Bytes())
	}
	return nil
}

// parseLog reads the output of log's format: for each commit the
// record start, "hash time\n", the message and a NUL, then the
// name-status entries, each a status and one path (two for renames and
// copies), NUL-terminated.
func parseLog(r io.Reader, each func(*commit) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	var c *commit
	flush := func() error {
		if c == nil {
			return nil
		}
		err := each(c)
		c = nil
		return err
	}
	for {
		field, err := br.ReadString(0)
		if err == io.EOF && field == "" {
			return flush()
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("read git log: %w", err)
		}
		field = strings.TrimSuffix(field, "\x00")
		field = strings.TrimPrefix(field, "\n") // between a message and its paths
		if rest, ok := strings.CutPrefix(field, recordStart); ok {
			if err := flush(); err != nil {
				return err
			}
			if c, err = parseHeader(rest); err != nil {
				return err
			}
			continue
		}
		if c == nil || field == "" {
			continue
		}
		status := field
		path, perr := br.ReadString(0)
		if perr != nil {
			return fmt.Errorf("read git log: a change without a path after %q", status)
		}
		path = strings.TrimSuffix(path, "\x00")
		if status[0] == 'R' || status[0] == 'C' {
			to, perr := br.ReadString(0)
			if perr != nil {
				return fmt.Errorf("read git log: a rename without its new path after %q", path)
			}
			to = strings.TrimSuffix(to, "\x00")
			if status[0] == 'R' {
				if c.renames == nil {
					c.renames = make(map[string]string)
				}
				c.renames[path] = to
			}
			path = to
		}
		c.paths = append(c.paths, path)
	}
}

// parseHeader reads "hash time\nmessage".
func parseHeader(s string) (*commit, error) {
	line, msg, _ := strings.Cut(s, "\n")
	h, t, ok := strings.Cut(line, " ")
	hash, err := hex.DecodeString(h)
	if !ok || err != nil {
		return nil, fmt.Errorf("read git log: bad commit line %q", line)
	}
	sec, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("read git log: bad commit time in %q", line)
	}
	return &commit{hash: hash, time: sec, message: msg}, nil
}
