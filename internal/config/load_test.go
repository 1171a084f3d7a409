package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	userTOML = `
[index]
location = "cache"
workers = 4
exclude = ["*.min.js", "dist/"]

[tokens]
encoding = "cl100k_base"
`
	repoTOML = `
version = 1

[index]
workers = 8
exclude = ["testdata/"]
include_generated = true
`
)

func TestLoadLayering(t *testing.T) {
	userOnly := func(c *Config) {
		c.Index.Location = "cache"
		c.Index.Workers = 4
		c.Index.Exclude = []string{"*.min.js", "dist/"}
		c.Tokens.Encoding = "cl100k_base"
	}
	repoOnly := func(c *Config) {
		c.Index.Workers = 8
		c.Index.Exclude = []string{"testdata/"}
		c.Index.IncludeGenerated = true
	}
	tests := []struct {
		name       string
		user, repo string // file contents; "" means no file
		noUser     bool
		want       func(c *Config) // applied to Default()
		sources    []string        // "user", "repo"
	}{
		{"no files: defaults", "", "", false, func(*Config) {}, nil},
		{"user file only", userTOML, "", false, userOnly, []string{"user"}},
		{"repo file only", "", repoTOML, false, repoOnly, []string{"repo"}},
		{"repo wins, absent keys keep user values, lists are replaced", userTOML, repoTOML, false,
			func(c *Config) { userOnly(c); repoOnly(c) }, []string{"user", "repo"}},
		{"NoUser skips the user file", userTOML, repoTOML, true, repoOnly, []string{"repo"}},
		{"empty files change nothing", "# nothing\n", "\n", false, func(*Config) {}, []string{"user", "repo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := isolate(t)
			userPath := filepath.Join(home, ".config", "winnow", "config.toml")
			root := t.TempDir()
			repoPath := filepath.Join(root, ".winnow.toml")
			if tt.user != "" {
				writeFile(t, userPath, tt.user)
			}
			if tt.repo != "" {
				writeFile(t, repoPath, tt.repo)
			}
			want := Default()
			tt.want(want)
			want.Sources = []string{}
			for _, s := range tt.sources {
				want.Sources = append(want.Sources, map[string]string{"user": userPath, "repo": repoPath}[s])
			}

			got, warns, err := Load(LoadOptions{RepoRoot: root, NoUser: tt.noUser})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(warns) != 0 {
				t.Errorf("Load warned: %v", warns)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Load mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadUserFileLocation(t *testing.T) {
	tests := []struct {
		name    string
		env     string // $WINNOW_CONFIG relative to the temp dir; "" leaves it unset
		option  string // LoadOptions.UserFile relative to the temp dir
		files   map[string]string
		want    string // the one source read, relative to the temp dir; "" means none
		wantErr string
	}{
		{"default location", "", "",
			map[string]string{"home/.config/winnow/config.toml": "[index]\nworkers = 2\n"},
			"home/.config/winnow/config.toml", ""},
		{"WINNOW_CONFIG replaces the default", "env.toml", "",
			map[string]string{"home/.config/winnow/config.toml": "", "env.toml": "[index]\nworkers = 2\n"},
			"env.toml", ""},
		{"UserFile option beats WINNOW_CONFIG", "env.toml", "opt.toml",
			map[string]string{"env.toml": "", "opt.toml": "[index]\nworkers = 2\n"},
			"opt.toml", ""},
		{"missing file at the default location is skipped", "", "", nil, "", ""},
		{"missing WINNOW_CONFIG file names the variable", "nope.toml", "", nil, "", "read config named by $WINNOW_CONFIG: open "},
		{"missing WINNOW_CONFIG file is an error", "nope.toml", "", nil, "", "nope.toml: no such file"},
		{"missing UserFile is an error", "", "nope.toml", nil, "", "nope.toml: no such file"},
		{"unreadable file is an error", "", "",
			map[string]string{"home/.config/winnow/config.toml/x": ""}, "", "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			dir := t.TempDir()
			t.Setenv("HOME", filepath.Join(dir, "home"))
			t.Setenv("XDG_CONFIG_HOME", "") // use $HOME/.config
			for name, content := range tt.files {
				writeFile(t, filepath.Join(dir, name), content)
			}
			if tt.env != "" {
				t.Setenv(EnvConfig, filepath.Join(dir, tt.env))
			}
			opts := LoadOptions{}
			if tt.option != "" {
				opts.UserFile = filepath.Join(dir, tt.option)
			}

			got, _, err := Load(opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Load error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			want := []string{}
			if tt.want != "" {
				want = []string{filepath.Join(dir, tt.want)}
				if got.Index.Workers != 2 {
					t.Errorf("Index.Workers = %d, want 2 from %s", got.Index.Workers, tt.want)
				}
			}
			if diff := cmp.Diff(want, got.Sources); diff != "" {
				t.Errorf("Sources mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadValidates(t *testing.T) {
	isolate(t)
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".winnow.toml"), "[index]\nworkers = -1\n")
	_, _, err := Load(LoadOptions{RepoRoot: root})
	want := "config from " + filepath.Join(root, ".winnow.toml") + `: index.workers = -1: must be between 0 (all cores) and 1024`
	if err == nil || err.Error() != want {
		t.Errorf("Load error = %v, want %s", err, want)
	}
}

func TestLoadWarnings(t *testing.T) {
	isolate(t)
	root := t.TempDir()
	t.Setenv(EnvConfig, filepath.Join(root, "user.toml"))
	writeFile(t, filepath.Join(root, "user.toml"), "colour = \"blue\"\n")
	writeFile(t, filepath.Join(root, ".winnow.toml"), "\n[index]\nwokers = 3\n")
	_, warns, err := Load(LoadOptions{RepoRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(root, "user.toml") + ":1: unknown key colour (ignored)",
		filepath.Join(root, ".winnow.toml") + ":3: unknown key index.wokers (ignored); did you mean index.workers?",
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}

func TestParseOverlays(t *testing.T) {
	c := Default()
	c.Index.Workers = 7
	c.Index.Exclude = []string{"keep"}
	if _, err := Parse(strings.NewReader("[index]\nlocation = \"cache\"\n"), "f.toml", c); err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Index.Location = "cache"
	want.Index.Workers = 7
	want.Index.Exclude = []string{"keep"}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", diff)
	}
}

func TestParseErrorLeavesConfigUnchanged(t *testing.T) {
	c := Default()
	c.Index.Exclude = []string{"x", "y"} // room for the decoder to write in place
	doc := "[index]\nexclude = [\"a\"]\nworkers = \"many\"\n"
	if _, err := Parse(strings.NewReader(doc), "f.toml", c); err == nil {
		t.Fatal("Parse succeeded, want a type error")
	}
	want := Default()
	want.Index.Exclude = []string{"x", "y"}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("config changed by a failed Parse (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name       string
		doc        string
		want       []string // substrings of the error
		parseError bool     // errors.As finds a toml.ParseError
	}{
		{"syntax error names the line", "version = 1\n[index]\nworkers = \n",
			[]string{"parse f.toml:", "line 3"}, true},
		{"unterminated string", "[index]\n\nlocation = \"repo\nworkers = 1\n",
			[]string{"parse f.toml:", "line 3", "index.location"}, true},
		{"duplicate key", "[index]\nworkers = 1\nworkers = 2\n",
			[]string{"parse f.toml:", "line 3", "index.workers"}, true},
		{"type mismatch names line and key", "[index]\n\nworkers = \"many\"\n",
			[]string{"parse f.toml:", "line 3", "index.workers", "TOML value has type string; destination has type integer"}, false},
		{"table where a value belongs", "index = 3\n",
			[]string{"parse f.toml:", "line 1", "index", "expected table"}, false},
		{"newer schema version", "version = 2\n[index]\nnew_thing = 1\n",
			[]string{"f.toml: version = 2: this winnow reads configuration schema version 1 at most; upgrade winnow"}, false},
		{"version zero", "version = 0\n",
			[]string{"f.toml: version = 0: must be between 1 and 1"}, false},
		{"version of the wrong type", "version = \"1\"\n",
			[]string{"parse f.toml:", "line 1", "version"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.doc), "f.toml", Default())
			if err == nil {
				t.Fatal("Parse succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Parse error = %q, want it to contain %q", err, w)
				}
			}
			var pe toml.ParseError
			if got := errors.As(err, &pe); got != tt.parseError {
				t.Errorf("errors.As(err, *toml.ParseError) = %v, want %v", got, tt.parseError)
			}
		})
	}
}

func TestParseReadError(t *testing.T) {
	_, err := Parse(iotestErrReader{}, "f.toml", Default())
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Parse error = %v, want one wrapping fs.ErrPermission", err)
	}
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, fs.ErrPermission }

func TestParseWarnings(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []Warning // File is always "f.toml"
	}{
		{"known keys only", "version = 1\n[index]\nworkers = 2\n[tokens]\nencoding = \"o200k_base\"\n", nil},
		{"top level", "version = 1\n\nverbose = true\n", []Warning{
			{Line: 3, Key: "verbose", Msg: "unknown key verbose (ignored)"},
		}},
		{"top level misspelled", "verison = 1\n", []Warning{
			{Line: 1, Key: "verison", Msg: "unknown key verison (ignored); did you mean version?"},
		}},
		{"in a table", "[index]\nworkers = 2\nwokers = 3\n", []Warning{
			{Line: 3, Key: "index.wokers", Msg: "unknown key index.wokers (ignored); did you mean index.workers?"},
		}},
		{"in the wrong table", "max_file_bytes = 10\n[index]\nencoding = \"cl100k_base\"\n", []Warning{
			{Line: 1, Key: "max_file_bytes", Msg: "unknown key max_file_bytes (ignored); did you mean index.max_file_bytes?"},
			{Line: 3, Key: "index.encoding", Msg: "unknown key index.encoding (ignored); did you mean tokens.encoding?"},
		}},
		{"nested dotted key", "[index]\nworkers = 1\nparse.timeout.ms = 5\n", []Warning{
			{Line: 3, Key: "index.parse.timeout.ms", Msg: "unknown key index.parse.timeout.ms (ignored)"},
		}},
		{"dotted key from the top level", "index.workers = 1\nindex . \"max bytes\" = 5\n", []Warning{
			{Line: 2, Key: `index."max bytes"`, Msg: `unknown key index."max bytes" (ignored)`},
		}},
		{"unknown table reported once", "[index]\nworkers = 1\n\n[metrics]\nfile = \"t.jsonl\"\nlevel = 2\n", []Warning{
			{Line: 4, Key: "metrics", Msg: "unknown key metrics (ignored)"},
		}},
		{"unknown subtable", "[index.rules]\ngo = true\n", []Warning{
			{Line: 1, Key: "index.rules", Msg: "unknown key index.rules (ignored)"},
		}},
		{"array of tables, each element", "[[plugin]]\nname = \"github\"\n\n[[plugin]]\nname = \"jira\"\n", []Warning{
			{Line: 1, Key: "plugin", Msg: "unknown key plugin (ignored)"},
			{Line: 4, Key: "plugin", Msg: "unknown key plugin (ignored)"},
		}},
		{"inline table", "index = { workers = 2,\n  colour = \"red\" }\n", []Warning{
			{Line: 2, Key: "index.colour", Msg: "unknown key index.colour (ignored)"},
		}},
		{"headers and keys inside strings do not count", "[index]\nexclude = [\n  \"[tokens]\", # a comment with x = 1\n  '''\nbogus = 1\n''',\n]\ncache_dir = \"\"\"\n[tokens]\nbogus = 2\n\"\"\"\nbogus = 3\n", []Warning{
			{Line: 12, Key: "index.bogus", Msg: "unknown key index.bogus (ignored)"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(strings.NewReader(tt.doc), "f.toml", Default())
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			for i := range tt.want {
				tt.want[i].File = "f.toml"
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("warnings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnknownKeysInKnownArrayOfTables covers a schema with [[arrays]] of tables, which
// winnow's will have ([[upstream]]): the unknown key is found in the element that has it.
func TestUnknownKeysInKnownArrayOfTables(t *testing.T) {
	var v struct {
		Upstream []struct {
			Name string `toml:"name"`
		} `toml:"upstream"`
	}
	doc := "[[upstream]]\nname = \"github\"\n\n[[upstream]]\nname = \"jira\"\ncomand = \"jira-mcp\"\n"
	md, err := toml.Decode(doc, &v)
	if err != nil {
		t.Fatal(err)
	}
	want := []Warning{{File: "f.toml", Line: 6, Key: "upstream.comand", Msg: "unknown key upstream.comand (ignored)"}}
	if diff := cmp.Diff(want, unknownKeys(doc, "f.toml", md.Undecoded())); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}
