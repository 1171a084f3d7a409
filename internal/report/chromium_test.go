//go:build unix

package report

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// envChromium names the Chromium executable the browser test renders the
// page with; .ci/run installs Debian's chromium and sets it.
const envChromium = "WINNOW_TEST_CHROMIUM"

// chromium returns $WINNOW_TEST_CHROMIUM, skipping the test when it is
// unset, except on CI (CI=true), which must never skip silently.
func chromium(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(envChromium)
	if bin == "" {
		msg := envChromium + " is not set; to run this test: apt-get install chromium && export " + envChromium + "=/usr/bin/chromium (.ci/run does this)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if _, err := exec.LookPath(bin); err != nil {
		t.Fatalf("%s=%s: %v", envChromium, bin, err)
	}
	return bin
}

// headless runs Chromium headless (as root it needs --no-sandbox) with a
// fresh profile and a 1280-pixel-wide window, and returns its output.
func headless(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
		"--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	// Chromium starts helper processes: stop them all with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, tail(stderr.String(), 2000))
	}
	return out
}

func tail(s string, n int) string { return s[max(len(s)-n, 0):] }

type rect struct{ X, Y, W, H float64 }

// measured is what the page's script writes into #measure (see measure.js).
type measured struct {
	Width, Height float64
	Charts        []struct {
		ID                        string
		Box                       rect
		Marks, Drawn              int
		XLabels, YLabels, RLabels []rect
	}
	Empties []string
}

var measurePre = regexp.MustCompile(`(?s)<pre id="measure"[^>]*>(.*?)</pre>`)

// TestChromiumRendersCharts renders the page in headless Chromium, for one
// day of data and for a year of it, and checks that every chart drew: its
// SVG has a size, its marks have sizes, the screenshot has coloured pixels
// where it is, and its axis labels are few and do not overlap.
func TestChromiumRendersCharts(t *testing.T) {
	bin := chromium(t)
	for _, tc := range []struct {
		name string
		data synth
	}{
		{"one day", synth{Events: 800, Start: time.Date(2026, 3, 4, 8, 0, 0, 0, time.UTC), Span: 10 * time.Hour, Seed: 2}},
		{"one year", yearOfEvents},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := BuildFile(synthFile(t, tc.data), &Options{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			page := filepath.Join(t.TempDir(), "report.html")
			var b bytes.Buffer
			if err := Render(&b, r); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			url := "file://" + page

			dom := headless(t, bin, "--window-size=1280,2000", "--dump-dom", url+"#measure")
			m := measurePre.FindSubmatch(dom)
			if m == nil || len(bytes.TrimSpace(m[1])) == 0 {
				t.Fatalf("the page's script wrote no measurements (blocked by its Content-Security-Policy?):\n%s", tail(string(dom), 1500))
			}
			var got measured
			if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &got); err != nil {
				t.Fatalf("measurements: %v\n%s", err, m[1])
			}
			checkLayout(t, r, got)

			shot := filepath.Join(t.TempDir(), "report.png")
			headless(t, bin, fmt.Sprintf("--window-size=1280,%d", int(math.Ceil(got.Height))), "--screenshot="+shot, url)
			checkInk(t, shot, r, got)
		})
	}
}

// minDrawn is how many marks of non-zero size each chart must have drawn:
// a bar or a dot per bucket with a value, a bar per row with a saving.
func minDrawn(r *Report) map[string]int {
	want := map[string]int{"chart-layers": 3, "chart-tools": min(len(r.Tools), 10), "chart-passes": len(r.Passes), "chart-models": 0}
	for _, b := range r.Series {
		if b.GatewaySaved > 0 || b.ProxySaved > 0 {
			want["chart-tokens"]++
		}
		if b.CostSaved > 0 {
			want["chart-cost"]++
		}
		if b.Prompt > 0 {
			want["chart-cache"]++
		}
	}
	for _, g := range r.Models[:min(len(r.Models), 10)] {
		if g.Tokens.Saved > 0 {
			want["chart-models"]++
		}
	}
	return want
}

func checkLayout(t *testing.T, r *Report, got measured) {
	t.Helper()
	if len(got.Empties) > 0 {
		t.Errorf("empty states shown: %v", got.Empties)
	}
	want := minDrawn(r)
	var ids []string
	for _, c := range got.Charts {
		ids = append(ids, c.ID)
		if c.Box.W < 600 || c.Box.H < 50 {
			t.Errorf("%s: drawn %gx%g pixels", c.ID, c.Box.W, c.Box.H)
		}
		if c.Drawn < max(want[c.ID], 1) {
			t.Errorf("%s: %d of %d marks have a size, want at least %d", c.ID, c.Drawn, c.Marks, max(want[c.ID], 1))
		}
		if slices.Contains([]string{"chart-tokens", "chart-cost", "chart-cache"}, c.ID) {
			if n := len(c.XLabels); n < 2 || n > maxXLabels {
				t.Errorf("%s: %d x-axis labels, want 2 to %d", c.ID, n, maxXLabels)
			}
			apart(t, c.ID+" x labels", c.XLabels, func(a rect) (float64, float64) { return a.X, a.W }, c.Box)
			apart(t, c.ID+" y labels", c.YLabels, func(a rect) (float64, float64) { return a.Y, a.H }, c.Box)
		}
		apart(t, c.ID+" row labels", c.RLabels, func(a rect) (float64, float64) { return a.Y, a.H }, c.Box)
	}
	slices.Sort(ids)
	wantIDs := []string{"chart-cache", "chart-cost", "chart-layers", "chart-models", "chart-passes", "chart-tokens", "chart-tools"}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("charts %v, want %v", ids, wantIDs)
	}
}

// apart checks that labels do not overlap along one axis (along gives a
// label's position and size on it) and stay within the chart's box.
func apart(t *testing.T, what string, labels []rect, along func(rect) (pos, size float64), box rect) {
	t.Helper()
	for i, l := range labels {
		if l.X < box.X-1 || l.X+l.W > box.X+box.W+1 || l.Y < box.Y-1 || l.Y+l.H > box.Y+box.H+1 {
			t.Errorf("%s: label %d at %+v is outside the chart %+v", what, i, l, box)
		}
	}
	sorted := slices.Clone(labels)
	slices.SortFunc(sorted, func(a, b rect) int {
		pa, _ := along(a)
		pb, _ := along(b)
		return cmp.Compare(pa, pb)
	})
	for i := 1; i < len(sorted); i++ {
		p0, n0 := along(sorted[i-1])
		if p1, _ := along(sorted[i]); p0+n0 > p1+0.5 {
			t.Errorf("%s: labels overlap: %+v and %+v", what, sorted[i-1], sorted[i])
		}
	}
}

// minInk is the least share of each chart's pixels the screenshot must
// show in colour: the bars and dots are saturated colours, the axes, grid
// and text greys, so an empty chart scores 0. A line chart is mostly
// blank; its dots must each show too (inkPerMark: a dot of radius 3.5 is
// about 38 pixels).
var minInk = map[string]float64{
	"chart-tokens": 0.03, "chart-cost": 0.03, "chart-cache": 0.001,
	"chart-tools": 0.05, "chart-layers": 0.05, "chart-passes": 0.05, "chart-models": 0.05,
}

const inkPerMark = 25

func checkInk(t *testing.T, path string, r *Report, got measured) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || float64(b.Dy()) < got.Height-1 {
		t.Fatalf("screenshot is %v, want 1280 by %g", b, got.Height)
	}
	marks := minDrawn(r)
	for _, c := range got.Charts {
		ink, all := 0, 0
		area := image.Rect(int(c.Box.X), int(c.Box.Y), int(c.Box.X+c.Box.W), int(c.Box.Y+c.Box.H)).Intersect(img.Bounds())
		for y := area.Min.Y; y < area.Max.Y; y++ {
			for x := area.Min.X; x < area.Max.X; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				if max(r, g, b)-min(r, g, b) >= 60<<8 {
					ink++
				}
				all++
			}
		}
		share := float64(ink) / float64(max(all, 1))
		t.Logf("%s: %.1f%% of %d pixels in colour", c.ID, 100*share, all)
		if share < minInk[c.ID] || ink < inkPerMark*marks[c.ID] {
			t.Errorf("%s: %d of its %d pixels in colour, want at least %.1f%% and %d per mark: the chart did not draw",
				c.ID, ink, all, 100*minInk[c.ID], inkPerMark)
		}
	}
}
