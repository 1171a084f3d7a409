package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// Set by release builds with -ldflags -X (see .goreleaser.yaml); when set, they win
// over what the Go toolchain stamped into the binary.
var (
	releaseVersion string // v1.2.3
	releaseCommit  string // the commit's short hash
	releaseDate    string // the commit's time, RFC 3339
)

func (a *app) versionCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print winnow's version, commit, date, Go version and platform",
		Long: `Version prints the module version winnow was built as (v1.2.3 when installed
with 'go install github.com/winnowhq/winnow/cmd/winnow@v1.2.3', a
pseudo-version when built from a git checkout, "devel" when built without
version control information), the commit and its date (with -dirty when the
tree had uncommitted changes), and the Go version and platform.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			b := currentBuild()
			if asJSON {
				return writeJSON(a.stdout, b)
			}
			_, err := fmt.Fprint(a.stdout, b)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version information as JSON")
	return cmd
}

// A build is what a winnow binary knows about how it was built.
type build struct {
	Version  string `json:"version"`          // v1.2.3, a pseudo-version, or "devel"
	Commit   string `json:"commit,omitempty"` // 12 hex digits, "-dirty" when the tree had changes
	Date     string `json:"date,omitempty"`   // the commit's time, RFC 3339
	Go       string `json:"go"`               // go1.26.8
	Platform string `json:"platform"`         // linux/amd64
}

// String is the text `winnow version` prints: "winnow VERSION" on the first line, the
// rest on indented lines, an unknown commit or date left out.
func (b build) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "winnow %s\n", b.Version)
	if b.Commit != "" {
		fmt.Fprintf(&s, "  commit  %s\n", b.Commit)
	}
	if b.Date != "" {
		fmt.Fprintf(&s, "  date    %s\n", b.Date)
	}
	fmt.Fprintf(&s, "  go      %s %s\n", b.Go, b.Platform)
	return s.String()
}

// version is the module version winnow was built as, or "devel": what the MCP server
// and the proxy announce.
func version() string { return currentBuild().Version }

// currentBuild reads this binary's build.
func currentBuild() build {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{GoVersion: runtime.Version()}
	}
	return readBuild(bi, build{Version: releaseVersion, Commit: releaseCommit, Date: releaseDate})
}

// readBuild reads a build from the information the Go toolchain stamps into a binary
// (bi), overridden field by field by what a release build set with -ldflags -X (rel).
//
// 'go install module@v1.2.3' stamps Main.Version v1.2.3 and no VCS settings; 'go build'
// in a git checkout stamps the vcs.* settings and, since Go 1.24, a Main.Version derived
// from them (the tag, or a pseudo-version, with "+dirty" for uncommitted changes); 'go
// run', -buildvcs=false and a tree without version control leave "(devel)". A
// pseudo-version names its commit and time, so a binary installed from an untagged
// commit ('go install …@main') still reports both.
func readBuild(bi *debug.BuildInfo, rel build) build {
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	b := build{Version: bi.Main.Version, Go: bi.GoVersion, Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if b.Version == "" || b.Version == "(devel)" {
		b.Version = "devel"
	}
	if goos, goarch := settings["GOOS"], settings["GOARCH"]; goos != "" && goarch != "" {
		b.Platform = goos + "/" + goarch
	}
	if rev := settings["vcs.revision"]; rev != "" {
		b.Commit = shortHash(rev)
		if settings["vcs.modified"] == "true" {
			b.Commit += "-dirty"
		}
		b.Date = settings["vcs.time"]
	} else if rev, date, dirty, ok := pseudoVersion(b.Version); ok {
		b.Commit, b.Date = rev, date
		if dirty {
			b.Commit += "-dirty"
		}
	}
	if rel.Version != "" {
		b.Version = rel.Version
	}
	if rel.Commit != "" {
		b.Commit = rel.Commit
	}
	if rel.Date != "" {
		b.Date = rel.Date
	}
	return b
}

// shortHash is the first 12 hex digits of a commit hash, as pseudo-versions spell it.
func shortHash(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// pseudoVersion reads the commit and its time from a pseudo-version such as
// v0.0.0-20261126041024-bed45b0c61fa (or v1.2.4-0.20261126041024-bed45b0c61fa), with
// "+dirty" when the tree had changes.
func pseudoVersion(v string) (rev, date string, dirty bool, ok bool) {
	v, dirty = strings.CutSuffix(v, "+dirty")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 {
		return "", "", false, false
	}
	rev, rest := v[i+1:], v[:i]
	j := strings.LastIndexAny(rest, "-.")
	if j < 0 {
		return "", "", false, false
	}
	t, err := time.Parse("20060102150405", rest[j+1:])
	if err != nil || strings.Trim(rev, "0123456789abcdef") != "" {
		return "", "", false, false
	}
	return rev, t.UTC().Format(time.RFC3339), dirty, true
}
