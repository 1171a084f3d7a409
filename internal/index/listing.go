package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The git listing, remembered. Every update asks git for the files of the
// tree (gitListFiles: a process that reads the git index and every
// directory of the tree; on sympy 4-5 ms of CPU and 8 ms of wall, a sixth
// of a one-file winnow index). Its answer depends on nothing but the git
// index file, the names in the tree's directories, the ignore files and
// git's configuration, so the update that asks remembers the answer in
// the index directory (listingName) with a stamp of each of those (type,
// size, modification time, inode): the git directory's index, exclude
// and config files, the configuration files git read, the default
// global ones, every directory of the tree but .git directories and the
// index's own, and every .gitignore in them. A name added to, removed
// from or renamed in a directory changes the directory's modification
// time; git replaces its index file by renaming a new one over it; an
// edited ignore or config file has a new modification time. The next
// update that finds every stamp as it was takes the remembered answer,
// and asks git otherwise (and remembers the new answer). Stamping again
// starts from the last stamps: a directory whose stamp did not change
// holds the same subdirectories and .gitignore (it is not read again),
// and configuration files that did not change are what git reads (it is
// not asked again), so that an editor that saves by renaming, which
// changes a directory on every save, costs git's listing and the stamps'
// lstat calls, no more.
//
// A change within the tick of the file system's clock that stamped the
// remembered state would leave the stamp as it was (git's "racy clean"
// problem): an answer any of whose stamps is younger than racyMargin
// before git was asked is not remembered. Neither is one that git's
// configuration makes depend on files the stamps do not cover (a
// core.excludesFile, an include), one asked under variables that move
// git's files (GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG...), or one for a tree
// of more than listingMaxDirs directories, whose stamps cost what git
// does (that it is, is remembered until the git index changes, so that
// its directories are not counted on every update). A tree whose top is
// not a git work tree with its own .git directory is never remembered
// either.

// listingName is the file, in the index directory, that remembers the
// last git listing.
const listingName = "listing"

// listingMagic starts the file; the version changes with the layout.
const listingMagic = "winnow git listing 2\n"

// racyMargin is how recent a stamp may be for the answer to be kept: more
// than the tick of any file system's clock (FAT's is two seconds).
const racyMargin = 2 * time.Second

// listingMaxDirs bounds the directories a remembered listing stamps.
const listingMaxDirs = 4096

// A fileStamp is what lstat says of one path; a missing path has none.
type fileStamp struct {
	path   string // absolute
	kind   stampKind
	exists bool
	mode   fs.FileMode // type bits
	size   int64
	mtime  int64 // nanoseconds
	ino    uint64
}

// What a stamp is of: git's own files, its configuration, a directory of
// the tree, a .gitignore in it.
type stampKind uint8

const (
	stampGit stampKind = iota
	stampConfig
	stampDir
	stampIgnore
)

// stampOf stamps one path.
func stampOf(path string, kind stampKind) (fileStamp, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileStamp{path: path, kind: kind}, nil
	}
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{path: path, kind: kind, exists: true, mode: fi.Mode().Type(), size: fi.Size(), mtime: fi.ModTime().UnixNano(), ino: fileID(fi)}, nil
}

// A listing is a remembered answer of git: the paths it listed, and the
// stamps of what they depend on. A tree of more than listingMaxDirs
// directories has a listing that says so (large), with a stamp of the
// git index only, so that the directories are not counted again until it
// changes; it never stands for git's answer.
type listing struct {
	root   string
	env    string // the GIT_ variables, sorted
	large  bool
	stamps []fileStamp
	paths  []string
}

// gitFiles lists the files git knows under the root (gitListFiles),
// taking the remembered answer when nothing it depends on changed.
// reused says which it did.
func (l *lister) gitFiles(ctx context.Context) ([]string, error) {
	file := filepath.Join(l.opts.Dir, listingName)
	env, envOK := gitEnv()
	if !envOK {
		return gitListFiles(ctx, l.root)
	}
	old, err := readListing(file)
	if err != nil || old.root != l.root || old.env != env {
		old = nil
	}
	var changed map[string]bool
	if old != nil {
		changed = old.changed()
		switch {
		case len(changed) == 0 && old.large:
			return gitListFiles(ctx, l.root)
		case len(changed) == 0:
			l.reused = true
			return old.paths, nil
		}
	}
	asked := time.Now()
	var rec *listing
	var wg sync.WaitGroup
	wg.Go(func() { rec = l.stampTree(ctx, env, old, changed) })
	paths, err := gitListFiles(ctx, l.root)
	wg.Wait()
	if err != nil || rec == nil {
		if rerr := os.Remove(file); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			l.opts.Logger.Debug("forget the git listing", "err", rerr)
		}
		return paths, err
	}
	if !rec.settled(asked) {
		// The last listing, changed, stays: what the next update stamps
		// again, it stamps from there (stampTree).
		return paths, nil
	}
	if !rec.large {
		rec.paths = paths
	}
	if err := writeAtomic(file, rec.encode()); err != nil {
		l.opts.Logger.Debug("remember the git listing", "err", err)
	}
	return paths, nil
}

// gitEnv returns the GIT_ variables of the environment, which the
// answer is remembered under; ok is false when one of them moves the
// files git reads (its directory, index or configuration) away from the
// ones stamped.
func gitEnv() (env string, ok bool) {
	var vars []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			continue
		}
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "GIT_DIR", name == "GIT_WORK_TREE", name == "GIT_INDEX_FILE", name == "GIT_COMMON_DIR",
			name == "GIT_CEILING_DIRECTORIES", name == "GIT_DISCOVERY_ACROSS_FILESYSTEM",
			strings.HasPrefix(name, "GIT_CONFIG"):
			return "", false
		}
		vars = append(vars, kv)
	}
	slices.Sort(vars)
	return strings.Join(vars, "\x00"), true
}

// changed returns the paths whose stamps are not as they were, none
// when the listing is current.
func (g *listing) changed() map[string]bool {
	var changed map[string]bool
	for _, s := range g.stamps {
		if now, err := stampOf(s.path, s.kind); err != nil || now != s {
			if changed == nil {
				changed = make(map[string]bool)
			}
			changed[s.path] = true
		}
	}
	return changed
}

// settled reports whether no stamp is younger than racyMargin before
// asked, the time git was asked: a later change could leave such a
// stamp as it is.
func (g *listing) settled(asked time.Time) bool {
	limit := asked.Add(-racyMargin).UnixNano()
	for _, s := range g.stamps {
		if s.exists && s.mtime >= limit {
			return false
		}
	}
	return true
}

// stampTree stamps what git's answer depends on (see above), or returns
// nil for an answer not to remember. From old, the last listing, whose
// stamps of the paths in changed differ, it takes what the stamps that
// did not change still tell: the configuration files (git config is not
// asked again), the subdirectories and .gitignore of a directory (not
// read again), and the stamps themselves, which changed has just taken
// (not taken again), so that an update after a file was saved by a
// rename stamps about what it checks.
func (l *lister) stampTree(ctx context.Context, env string, old *listing, changed map[string]bool) *listing {
	g := &listing{root: l.root, env: env}
	same := make(map[string]fileStamp)
	if old != nil {
		for _, s := range old.stamps {
			if !changed[s.path] {
				same[s.path] = s
			}
		}
	}
	add := func(path string, kind stampKind) bool {
		s, ok := same[path]
		var err error
		if !ok || s.kind != kind {
			s, err = stampOf(path, kind)
		}
		g.stamps = append(g.stamps, s)
		return err == nil
	}
	gitDir := filepath.Join(l.root, ".git")
	if fi, err := os.Lstat(gitDir); err != nil || !fi.IsDir() {
		return nil // a linked work tree, a submodule, a tree inside a repository, no git
	}
	for _, name := range []string{".git/index", ".git/info/exclude", ".git/config", ".git/config.worktree"} {
		if !add(filepath.Join(l.root, filepath.FromSlash(name)), stampGit) {
			return nil
		}
	}
	if !l.stampConfig(ctx, g, old, changed) {
		return nil
	}
	// The directories of the last listing whose stamps did not change,
	// with their subdirectories and whether they hold a .gitignore.
	known := make(map[string]*dirEntries)
	if old != nil && !old.large {
		for _, s := range old.stamps {
			switch {
			case s.kind == stampDir && !changed[s.path]:
				if known[s.path] == nil {
					known[s.path] = &dirEntries{}
				}
			case s.kind == stampIgnore && s.exists:
				e := known[filepath.Dir(s.path)]
				if e != nil {
					e.ignore = true
				}
			}
		}
		for _, s := range old.stamps {
			if parent := known[filepath.Dir(s.path)]; s.kind == stampDir && parent != nil && s.path != l.root {
				parent.dirs = append(parent.dirs, filepath.Base(s.path))
			}
		}
	}
	dirs := 0
	var walk func(dir string) bool
	walk = func(dir string) bool {
		if dirs++; dirs > listingMaxDirs || ctx.Err() != nil {
			return false
		}
		if !add(dir, stampDir) {
			return false
		}
		e := known[dir]
		if e == nil {
			var err error
			if e, err = readDirEntries(dir); err != nil {
				return false
			}
		}
		if e.ignore && !add(filepath.Join(dir, ".gitignore"), stampIgnore) {
			return false
		}
		for _, name := range e.dirs {
			sub := filepath.Join(dir, name)
			if name == ".git" || sub == l.opts.Dir {
				continue
			}
			if !walk(sub) {
				return false
			}
		}
		return true
	}
	if !walk(l.root) {
		if dirs <= listingMaxDirs {
			return nil
		}
		// Too large to stamp: remembered as such, until the git index changes.
		g.large = true
		g.stamps = g.stamps[:1]
	}
	return g
}

// dirEntries is what a directory holds that the stamps follow.
type dirEntries struct {
	dirs   []string // names of subdirectories
	ignore bool     // a .gitignore file
}

func readDirEntries(dir string) (*dirEntries, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	e := &dirEntries{}
	for _, de := range des {
		switch {
		case de.IsDir():
			e.dirs = append(e.dirs, de.Name())
		case de.Name() == ".gitignore":
			e.ignore = true
		}
	}
	return e, nil
}

// stampConfig stamps git's configuration files: those of old when none
// of them changed, else the default ones and those git reads, which it
// asks (gitConfigOrigins). It reports false when the configuration makes
// the answer depend on files it does not stamp.
func (l *lister) stampConfig(ctx context.Context, g *listing, old *listing, changed map[string]bool) bool {
	if old != nil && !old.large {
		var config []fileStamp
		same := true
		for _, s := range old.stamps {
			if s.kind == stampConfig {
				config = append(config, s)
				same = same && !changed[s.path]
			}
		}
		if same && len(config) > 0 {
			g.stamps = append(g.stamps, config...)
			return true
		}
	}
	files := defaultGitConfig()
	origins, ok := gitConfigOrigins(ctx, l.root)
	if !ok {
		return false
	}
	for _, f := range origins {
		if !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	for _, f := range files {
		s, err := stampOf(f, stampConfig)
		if err != nil {
			return false
		}
		g.stamps = append(g.stamps, s)
	}
	return true
}

// defaultGitConfig returns the configuration and ignore files git reads
// when they exist, whether or not they do.
func defaultGitConfig() []string {
	files := []string{"/etc/gitconfig"}
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"), filepath.Join(xdg, "git", "ignore"))
	}
	return files
}

// gitConfigOrigins returns the configuration files git reads in root;
// ok is false when the configuration names files of its own (an
// excludes file, an include) or comes from elsewhere than files.
func gitConfigOrigins(ctx context.Context, root string) (files []string, ok bool) {
	out, err := gitOutput(ctx, root, "config", "--list", "--show-origin", "--name-only", "-z")
	if err != nil {
		return nil, false
	}
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	if len(out) == 0 {
		fields = nil
	}
	if len(fields)%2 != 0 {
		return nil, false
	}
	for i := 0; i < len(fields); i += 2 {
		origin, key := string(fields[i]), strings.ToLower(string(fields[i+1]))
		path, isFile := strings.CutPrefix(origin, "file:")
		if !isFile || key == "core.excludesfile" || strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif.") {
			return nil, false
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if !slices.Contains(files, path) {
			files = append(files, path)
		}
	}
	return files, true
}

// encode lays out the listing file: magic, root, environment, stamps,
// paths, and a CRC-32 of all of it.
func (g *listing) encode() []byte {
	b := []byte(listingMagic)
	b = appendString(b, g.root)
	b = appendString(b, g.env)
	large := uint64(0)
	if g.large {
		large = 1
	}
	b = binary.AppendUvarint(b, large)
	b = binary.AppendUvarint(b, uint64(len(g.stamps)))
	for _, s := range g.stamps {
		b = appendString(b, s.path)
		b = binary.AppendUvarint(b, uint64(s.kind))
		exists := uint64(0)
		if s.exists {
			exists = 1
		}
		b = binary.AppendUvarint(b, exists)
		b = binary.AppendUvarint(b, uint64(s.mode))
		b = binary.AppendVarint(b, s.size)
		b = binary.AppendVarint(b, s.mtime)
		b = binary.AppendUvarint(b, s.ino)
	}
	b = binary.AppendUvarint(b, uint64(len(g.paths)))
	for _, p := range g.paths {
		b = appendString(b, p)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

var errListing = errors.New("not a git listing file")

// readListing reads a listing file, checked whole.
func readListing(file string) (*listing, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(b) < len(listingMagic)+4 || string(b[:len(listingMagic)]) != listingMagic {
		return nil, errListing
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errListing
	}
	r := reader{buf: body[len(listingMagic):]}
	g := &listing{root: r.string(), env: r.string()}
	g.large = r.uvarint() == 1
	g.stamps = make([]fileStamp, r.count())
	for i := range g.stamps {
		s := &g.stamps[i]
		s.path = r.string()
		s.kind = stampKind(r.uvarint())
		s.exists = r.uvarint() == 1
		s.mode = fs.FileMode(r.uvarint())
		s.size = r.varint()
		s.mtime = r.varint()
		s.ino = r.uvarint()
	}
	g.paths = make([]string, r.count())
	for i := range g.paths {
		g.paths[i] = r.string()
	}
	if r.err != nil || len(r.buf) != 0 {
		return nil, errListing
	}
	return g, nil
}
