package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestReadBuild(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "GOOS", Value: "darwin"}, {Key: "GOARCH", Value: "arm64"},
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified},
		}
	}
	const rev = "bed45b0c61fa499d8da02a8c71425c2681e1466d"
	here := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name string
		bi   debug.BuildInfo
		rel  build
		want build
	}{{
		name: "go install of a tag",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/winnowhq/winnow", Version: "v1.2.3"}},
		want: build{Version: "v1.2.3", Go: "go1.26.8", Platform: here},
	}, {
		name: "go install of an untagged commit",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.4-0.20261126041024-bed45b0c61fa"}},
		want: build{Version: "v1.2.4-0.20261126041024-bed45b0c61fa", Commit: "bed45b0c61fa", Date: "2026-11-26T04:10:24Z", Go: "go1.26.8", Platform: here},
	}, {
		name: "go build in a tagged checkout",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: vcs(rev, "2026-11-26T04:10:24Z", "false")},
		want: build{Version: "v1.2.3", Commit: "bed45b0c61fa", Date: "2026-11-26T04:10:24Z", Go: "go1.26.8", Platform: "darwin/arm64"},
	}, {
		name: "devel with vcs settings",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-11-26T04:10:24Z", "false")},
		want: build{Version: "devel", Commit: "bed45b0c61fa", Date: "2026-11-26T04:10:24Z", Go: "go1.26.8", Platform: "darwin/arm64"},
	}, {
		name: "dirty checkout",
		bi: debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261126041024-bed45b0c61fa+dirty"},
			Settings: vcs(rev, "2026-11-26T04:10:24Z", "true")},
		want: build{Version: "v0.0.0-20261126041024-bed45b0c61fa+dirty", Commit: "bed45b0c61fa-dirty", Date: "2026-11-26T04:10:24Z", Go: "go1.26.8", Platform: "darwin/arm64"},
	}, {
		name: "dirty pseudo-version without vcs settings",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261126041024-bed45b0c61fa+dirty"}},
		want: build{Version: "v0.0.0-20261126041024-bed45b0c61fa+dirty", Commit: "bed45b0c61fa-dirty", Date: "2026-11-26T04:10:24Z", Go: "go1.26.8", Platform: here},
	}, {
		name: "go run, or -buildvcs=false",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
		want: build{Version: "devel", Go: "go1.26.8", Platform: here},
	}, {
		name: "a version that only looks like a pseudo-version",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.0.0-rc.1-notahexhashx"}},
		want: build{Version: "v1.0.0-rc.1-notahexhashx", Go: "go1.26.8", Platform: here},
	}, {
		name: "release build with ldflags",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: vcs(rev, "2026-11-26T04:10:24Z", "true")},
		rel:  build{Version: "v1.2.3", Commit: "bed45b0", Date: "2026-11-26T04:10:24Z"},
		want: build{Version: "v1.2.3", Commit: "bed45b0", Date: "2026-11-26T04:10:24Z", Go: "go1.26.8", Platform: "darwin/arm64"},
	}, {
		name: "ldflags version over a devel build",
		bi:   debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-11-26T04:10:24Z", "false")},
		rel:  build{Version: "v2.0.0"},
		want: build{Version: "v2.0.0", Commit: "bed45b0c61fa", Date: "2026-11-26T04:10:24Z", Go: "go1.26.8", Platform: "darwin/arm64"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readBuild(&tt.bi, tt.rel)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("readBuild (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildString(t *testing.T) {
	b := build{Version: "v1.2.3", Commit: "bed45b0c61fa-dirty", Date: "2026-11-26T04:10:24Z", Go: "go1.26.8", Platform: "linux/amd64"}
	want := "winnow v1.2.3\n  commit  bed45b0c61fa-dirty\n  date    2026-11-26T04:10:24Z\n  go      go1.26.8 linux/amd64\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	bare := build{Version: "devel", Go: "go1.26.8", Platform: "linux/amd64"}
	if diff := cmp.Diff("winnow devel\n  go      go1.26.8 linux/amd64\n", bare.String()); diff != "" {
		t.Errorf("without commit and date (-want +got):\n%s", diff)
	}
}

func TestVersionJSON(t *testing.T) {
	code, out, errOut := run(t, "version", "--json")
	if code != 0 {
		t.Fatalf("version --json: exit %d: %s", code, errOut)
	}
	var b build
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatalf("version --json: %v\n%s", err, out)
	}
	if b.Version == "" || b.Go != runtime.Version() || b.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("version --json: %+v, want a version, Go %s on %s/%s", b, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
}

// TestVersionOfBuiltBinary builds winnow with 'go build' in this checkout and wants
// 'winnow version' to name the checkout's commit and its date, and not to say "devel".
func TestVersionOfBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds winnow")
	}
	root := moduleRoot(t)
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", root}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	// Other commits or edits may land while this runs: read the state before and after.
	headBefore, dirtyBefore := git("rev-parse", "HEAD"), git("status", "--porcelain") != ""
	bin := filepath.Join(t.TempDir(), "winnow")
	goBuild(t, root, nil, "-buildvcs=true", "-o", bin, "./cmd/winnow")
	headAfter, dirtyAfter := git("rev-parse", "HEAD"), git("status", "--porcelain") != ""

	var b build
	runJSON(t, bin, &b, "version", "--json")
	hash, dirty := strings.CutSuffix(b.Commit, "-dirty")
	if hash != headBefore[:12] && hash != headAfter[:12] {
		t.Errorf("commit %q, want %s (HEAD)", b.Commit, headAfter[:12])
	}
	if dirtyBefore == dirtyAfter && dirty != dirtyAfter {
		t.Errorf("commit %q: dirty %v, but git status says %v", b.Commit, dirty, dirtyAfter)
	}
	if rev, _, _, ok := pseudoVersion(b.Version); b.Version == "devel" || ok && rev != hash {
		t.Errorf("version %q: want a tag or the pseudo-version of %s", b.Version, hash)
	}
	at, err := time.Parse(time.RFC3339, git("show", "-s", "--format=%cI", hash))
	if err != nil {
		t.Fatal(err)
	}
	if want := at.UTC().Format(time.RFC3339); b.Date != want {
		t.Errorf("date %q, want the commit's %q", b.Date, want)
	}
	if b.Go != runtime.Version() || b.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("go %q on %q, want %s on %s/%s", b.Go, b.Platform, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	t.Logf("winnow version of the build:\n%s", b)
}

// moduleRoot is the root of this module's checkout: a git work tree, or the test fails
// (skips outside CI).
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		msg := root + " is not a git checkout: no commit to stamp"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return root
}

// goBuild runs 'go build args...' in dir with env added, failing the test on an error.
func goBuild(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// runJSON runs bin with args and decodes its stdout into v.
func runJSON(t *testing.T, bin string, v any, args ...string) {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
}
