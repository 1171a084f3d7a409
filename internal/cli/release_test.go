package cli

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"text/template"

	"go.yaml.in/yaml/v4"
)

// goreleaserConfig is the part of .goreleaser.yaml the release depends on.
type goreleaserConfig struct {
	Version int `yaml:"version"`
	Builds  []struct {
		ID        string             `yaml:"id"`
		Main      string             `yaml:"main"`
		Binary    string             `yaml:"binary"`
		Goos      []string           `yaml:"goos"`
		Goarch    []string           `yaml:"goarch"`
		Env       []string           `yaml:"env"`
		Flags     []string           `yaml:"flags"`
		Tags      []string           `yaml:"tags"`
		Ldflags   []string           `yaml:"ldflags"`
		Overrides []goreleaserTarget `yaml:"overrides"`
	} `yaml:"builds"`
	Release struct {
		GitHub struct {
			Owner string `yaml:"owner"`
			Name  string `yaml:"name"`
		} `yaml:"github"`
	} `yaml:"release"`
}

type goreleaserTarget struct {
	Goos    string   `yaml:"goos"`
	Goarch  string   `yaml:"goarch"`
	Env     []string `yaml:"env"`
	Tags    []string `yaml:"tags"`
	Ldflags []string `yaml:"ldflags"`
}

// TestReleaseConfig checks that .goreleaser.yaml builds winnow with cgo for
// linux and darwin on amd64 and arm64, each target with its own C compiler, then runs
// the linux/amd64 build as GoReleaser would (its environment, flags, tags and
// ldflags, templates filled in) and wants the binary to be static and to report the
// version, commit and date the ldflags set.
func TestReleaseConfig(t *testing.T) {
	root := moduleRoot(t)
	var cfg goreleaserConfig
	readYAML(t, filepath.Join(root, ".goreleaser.yaml"), &cfg)
	if cfg.Version != 2 {
		t.Errorf("version: %d, want 2 (GoReleaser v2's schema)", cfg.Version)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf("%d builds, want 1", len(cfg.Builds))
	}
	b := cfg.Builds[0]
	if b.Main != "./cmd/winnow" || b.Binary != "winnow" {
		t.Errorf("builds %q as %q, want ./cmd/winnow as winnow", b.Main, b.Binary)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=1") {
		t.Errorf("env %q: cgo is off, and the tree-sitter grammars need it", b.Env)
	}
	if owner, name := cfg.Release.GitHub.Owner, cfg.Release.GitHub.Name; "github.com/"+owner+"/"+name != modulePath(t, root) {
		t.Errorf("releases to github.com/%s/%s, not the module's repository %s", owner, name, modulePath(t, root))
	}
	var targets []string
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			targets = append(targets, goos+"/"+goarch)
		}
	}
	if want := []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"}; !sameSet(targets, want) {
		t.Errorf("targets %q, want %q", targets, want)
	}
	for _, target := range targets {
		o := override(b.Overrides, target)
		if o == nil || envValue(o.Env, "CC") == "" || envValue(o.Env, "CXX") == "" {
			t.Errorf("%s: no override naming its C and C++ compilers (CC, CXX)", target)
		}
	}

	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("builds the linux/amd64 target, not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	if testing.Short() {
		t.Skip("builds winnow")
	}
	o := override(b.Overrides, "linux/amd64")
	env := append(slices.Clone(b.Env), o.Env...)
	cc := envValue(env, "CC")
	if _, err := exec.LookPath(cc); err != nil {
		msg := fmt.Sprintf("%s (the linux/amd64 C compiler of .goreleaser.yaml) is not installed: apt-get install gcc", cc)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	tags, ldflags := b.Tags, b.Ldflags
	if o.Tags != nil {
		tags = o.Tags
	}
	if o.Ldflags != nil {
		ldflags = o.Ldflags
	}
	release := map[string]string{"Version": "1.2.3", "ShortCommit": "0a1b2c3", "CommitDate": "2026-01-02T03:04:05Z"}
	var filled []string
	for _, l := range ldflags {
		var s strings.Builder
		if err := template.Must(template.New("ldflags").Option("missingkey=error").Parse(l)).Execute(&s, release); err != nil {
			t.Fatalf("ldflags %q: %v", l, err)
		}
		filled = append(filled, s.String())
	}
	bin := filepath.Join(t.TempDir(), "winnow")
	args := append(slices.Clone(b.Flags), "-tags", strings.Join(tags, ","), "-ldflags", strings.Join(filled, " "), "-o", bin, b.Main)
	t.Logf("CGO_ENABLED=1 CC=%s GOOS=linux GOARCH=amd64 go build %s", cc, strings.Join(args, " "))
	goBuild(t, root, append(env, "GOOS=linux", "GOARCH=amd64"), args...)

	var got build
	runJSON(t, bin, &got, "version", "--json")
	if got.Version != "v1.2.3" || got.Commit != "0a1b2c3" || got.Date != "2026-01-02T03:04:05Z" || got.Platform != "linux/amd64" {
		t.Errorf("winnow version of the release build: %+v, want v1.2.3, commit 0a1b2c3, date 2026-01-02T03:04:05Z on linux/amd64", got)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	libs, _ := f.ImportedLibraries()
	if len(libs) > 0 || slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP }) {
		t.Errorf("the linux/amd64 release binary is dynamically linked (%q): it would need the build machine's glibc", libs)
	}
}

// TestReleaseWorkflow checks that the release workflow runs on version tags, runs
// GoReleaser in the goreleaser-cross image of go.mod's Go minor version, and pins every
// action it uses to a commit.
func TestReleaseWorkflow(t *testing.T) {
	root := moduleRoot(t)
	var wf struct {
		On struct {
			Push struct {
				Tags []string `yaml:"tags"`
			} `yaml:"push"`
		} `yaml:"on"`
		Permissions map[string]string `yaml:"permissions"`
		Env         map[string]string `yaml:"env"`
		Jobs        map[string]struct {
			Steps []struct {
				Uses string `yaml:"uses"`
				Run  string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	readYAML(t, filepath.Join(root, ".github", "workflows", "release.yml"), &wf)
	if !slices.Contains(wf.On.Push.Tags, "v*") {
		t.Errorf("on.push.tags %q: want v*", wf.On.Push.Tags)
	}
	if wf.Permissions["contents"] != "write" {
		t.Errorf("permissions %v: a release needs contents: write", wf.Permissions)
	}
	image := wf.Env["GORELEASER_CROSS"]
	m := regexp.MustCompile(`^ghcr\.io/goreleaser/goreleaser-cross:v(\d+\.\d+)\.\d+$`).FindStringSubmatch(image)
	goMinor := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(readFile(t, filepath.Join(root, "go.mod")))
	if m == nil || goMinor == nil || m[1] != goMinor[1] {
		t.Errorf("env.GORELEASER_CROSS %q: want goreleaser-cross of go.mod's Go (%v)", image, goMinor)
	}
	released := false
	for name, job := range wf.Jobs {
		for _, s := range job.Steps {
			if s.Uses != "" && !regexp.MustCompile(`@[0-9a-f]{40}$`).MatchString(s.Uses) {
				t.Errorf("job %s uses %s: pin it to a commit", name, s.Uses)
			}
			if strings.Contains(s.Run, `"$GORELEASER_CROSS"`) && strings.Contains(s.Run, "release --clean") && strings.Contains(s.Run, "CGO_ENABLED=1") {
				released = true
			}
		}
	}
	if !released {
		t.Error("no step runs `release --clean` with CGO_ENABLED=1 in $GORELEASER_CROSS")
	}
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	if err := yaml.Unmarshal([]byte(readFile(t, path)), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func modulePath(t *testing.T, root string) string {
	m := regexp.MustCompile(`(?m)^module (\S+)`).FindStringSubmatch(readFile(t, filepath.Join(root, "go.mod")))
	if m == nil {
		t.Fatal("go.mod names no module")
	}
	return m[1]
}

func override(overrides []goreleaserTarget, target string) *goreleaserTarget {
	for i, o := range overrides {
		if o.Goos+"/"+o.Goarch == target {
			return &overrides[i]
		}
	}
	return nil
}

func envValue(env []string, key string) string {
	v := ""
	for _, e := range env {
		if k, val, ok := strings.Cut(e, "="); ok && k == key {
			v = val
		}
	}
	return v
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
