package cli

import (
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var updateSetup = flag.Bool("update-setup", false, "rewrite the want sections of testdata/setup/*.txtar")

// TestSetupGolden runs the scenarios of testdata/setup: `winnow setup` on a temporary
// home (and project) holding the archive's files. A scenario is a txtar archive:
//
//	-- args --                the arguments after "setup"; --home, --command winnow and
//	                          --config (winnow.toml, or an empty file) are added
//	-- env --                 optional KEY=VALUE lines ($ROOT, $HOME, $PROJECT expand)
//	-- winnow.toml --         optional: winnow's user configuration
//	-- symlinks --            optional "link -> target" lines, relative to the root
//	-- home/… --, -- project/… --, -- other/… --   the files before the run
//	-- want/exit --           the exit code, when not 0
//	-- want/stdout --, -- want/stderr --
//	-- want/home/… -- …       every file the run created or changed, backups included
//	-- want/again --          after a --write that succeeded: the stdout of the same run again
//
// Every file not listed under want/ must be as it was, and no other file may appear.
// Paths print with the temporary directories as $ROOT, $PROJECT (and ~ for the home),
// backups with their time as TIME. -update-setup rewrites the want sections.
func TestSetupGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "setup", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runSetupScenario(t, file)
		})
	}
}

var backupTime = regexp.MustCompile(`\.bak-\d{8}-\d{6}`)

func runSetupScenario(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, f := range ar.Files {
		sections[f.Name] = string(f.Data)
	}
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	expand := strings.NewReplacer("$ROOT", root, "$HOME", home, "$PROJECT", project).Replace
	for _, dir := range []string{home, project} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range sections {
		if !strings.HasPrefix(name, "home/") && !strings.HasPrefix(name, "project/") && !strings.HasPrefix(name, "other/") {
			continue
		}
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range nonEmptyLines(sections["symlinks"]) {
		link, target, _ := strings.Cut(l, " -> ")
		link = filepath.Join(root, link)
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, target), link); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshotTree(t, root)
	config := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(config, []byte(sections["winnow.toml"]), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	for _, l := range nonEmptyLines(sections["env"]) {
		k, v, _ := strings.Cut(l, "=")
		t.Setenv(k, expand(v))
	}
	args := append([]string{"setup"}, strings.Fields(expand(sections["args"]))...)
	args = append(args, "--home", home, "--command", "winnow", "--config", config)
	normalize := func(s string) string {
		s = strings.NewReplacer(project, "$PROJECT", root, "$ROOT").Replace(s)
		return backupTime.ReplaceAllString(s, ".bak-TIME")
	}

	code, stdout, stderr := run(t, args...)
	got := map[string]string{"want/stdout": normalize(stdout), "want/stderr": normalize(stderr)}
	if code != 0 {
		got["want/exit"] = strconv.Itoa(code) + "\n"
	}
	after := snapshotTree(t, root)
	for path, data := range after {
		if old, ok := before[path]; !ok || old != data {
			got["want/"+path] = data
		}
	}
	var deleted []string
	for path := range before {
		if _, ok := after[path]; !ok {
			deleted = append(deleted, path)
		}
	}
	if len(deleted) > 0 {
		t.Errorf("files removed: %q", deleted)
	}
	if code == 0 && slices.Contains(args, "--write") {
		_, again, errAgain := run(t, args...)
		got["want/again"] = normalize(again)
		if errAgain != "" {
			t.Errorf("second run wrote to stderr: %s", errAgain)
		}
		if diff := cmp.Diff(after, snapshotTree(t, root)); diff != "" {
			t.Errorf("the second --write changed files (-first +second):\n%s", diff)
		}
	}

	want := map[string]string{}
	for name, data := range sections {
		if strings.HasPrefix(name, "want/") {
			want[name] = data
		}
	}
	for name, data := range got {
		if data == "" && want[name] == "" {
			delete(got, name)
		}
	}
	if *updateSetup {
		writeScenario(t, file, ar, got)
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scenario %s (-want +got):\n%s", file, diff)
	}
}

// snapshotTree maps every file under root to its text, and every symbolic link to
// "-> target"; paths are relative, backups' times replaced by TIME.
func snapshotTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = backupTime.ReplaceAllString(filepath.ToSlash(rel), ".bak-TIME")
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			target, _ = filepath.Rel(root, target)
			out[rel] = "-> " + filepath.ToSlash(target) + "\n"
			return nil
		}
		data, err := os.ReadFile(path)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeScenario rewrites file's want sections with got.
func writeScenario(t *testing.T, file string, ar *txtar.Archive, got map[string]string) {
	t.Helper()
	var files []txtar.File
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "want/") {
			files = append(files, f)
		}
	}
	names := make([]string, 0, len(got))
	for name := range got {
		names = append(names, name)
	}
	order := func(name string) int {
		switch name {
		case "want/exit":
			return 0
		case "want/stdout":
			return 1
		case "want/stderr":
			return 2
		case "want/again":
			return 4
		}
		return 3
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := order(a) - order(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		files = append(files, txtar.File{Name: name, Data: []byte(got[name])})
	}
	ar.Files = files
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func TestSetupUsage(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"setup", "cursor"}, `unknown client "cursor": winnow setup knows claude-code and codex`},
		{[]string{"setup", "codex", "--scope", "team"}, `--scope "team": must be user or project`},
		{[]string{"setup", "codex", "--no-mcp", "--no-proxy"}, "--no-mcp and --no-proxy leave nothing to set up"},
		{[]string{"setup"}, "accepts 1 arg(s), received 0"},
	}
	for _, tt := range tests {
		code, out, errOut := run(t, append(tt.args, "--home", home)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, code, out, errOut, exitUsage, tt.want)
		}
	}
	entries, _ := os.ReadDir(home)
	if len(entries) > 0 {
		t.Errorf("usage errors wrote to the home: %v", entries)
	}
}

// TestSetupProxyListen wires the proxy at [proxy] listen of the user configuration, and
// refuses a port chosen at random.
func TestSetupProxyListen(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	os.WriteFile(cfg, []byte("[proxy]\nlisten = \"0.0.0.0:9000\"\n"), 0o644)
	code, out, errOut := run(t, "setup", "claude-code", "--no-mcp", "--json", "--home", dir, "--config", cfg)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep setupOutput
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || !strings.Contains(rep.Files[0].Snippet, `"ANTHROPIC_BASE_URL": "http://127.0.0.1:9000"`) {
		t.Errorf("0.0.0.0:9000 is reached at 127.0.0.1:9000; got %+v", rep.Files)
	}
	os.WriteFile(cfg, []byte("[proxy]\nlisten = \"127.0.0.1:0\"\n"), 0o644)
	code, _, errOut = run(t, "setup", "codex", "--no-mcp", "--home", dir, "--config", cfg)
	if code != exitError || !strings.Contains(errOut, "set a fixed port") {
		t.Errorf("listen on port 0: exit %d, %q", code, errOut)
	}
}

func TestSetupJSON(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfg, nil, 0o644)
	t.Setenv("CODEX_HOME", "")
	args := []string{"setup", "codex", "--json", "--home", home, "--command", "/opt/winnow/bin/winnow", "--config", cfg}
	for i, write := range []bool{false, true, true} {
		a := args
		if write {
			a = append(a, "--write")
		}
		code, out, errOut := run(t, a...)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, errOut)
		}
		var rep setupOutput
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("run %d: %v\n%s", i, err, out)
		}
		f := rep.Files[0]
		wantStatus := []string{"create", "create", "unchanged"}[i]
		if rep.Client != "codex" || rep.Scope != "user" || rep.Write != write || len(rep.Files) != 1 ||
			f.Path != filepath.Join(home, ".codex", "config.toml") || f.Status != wantStatus || f.Written != (i == 1) {
			t.Errorf("run %d: %+v", i, rep)
		}
		if i < 2 && !strings.Contains(f.Diff, "+command = \"/opt/winnow/bin/winnow\"\n") {
			t.Errorf("run %d: diff %q", i, f.Diff)
		}
		if !strings.Contains(f.Snippet, "[mcp_servers.winnow]\ncommand = \"/opt/winnow/bin/winnow\"\nargs = [\"mcp\"]\n") || len(rep.Notes) != 2 {
			t.Errorf("run %d: snippet %q, notes %q", i, f.Snippet, rep.Notes)
		}
	}
}
