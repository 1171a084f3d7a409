package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// writeReportTelemetry writes gateway and proxy events to a telemetry file
// the user configuration points at, and moves to its directory.
func writeReportTelemetry(t *testing.T) string {
	t.Helper()
	now := time.Now().UTC()
	path := writeTelemetry(t,
		telemetry.Event{Time: now.Add(-72 * time.Hour), Tool: "gh__old", Session: "a", Before: 5000, After: 5000, Layer: telemetry.LayerNone},
		telemetry.Event{Time: now.Add(-time.Hour), Tool: "gh__list<script>", Session: "a", Before: 30000, After: 4000, Layer: "encode+trim",
			Layers: []telemetry.LayerTokens{{Layer: "encode", Before: 30000, After: 16000}, {Layer: "trim", Before: 16000, After: 4000}}},
	)
	line, err := json.Marshal(telemetry.ProxyEvent{Kind: telemetry.KindProxy, Time: now.Add(-30 * time.Minute), Dialect: "anthropic",
		Path: "/v1/messages", Client: "claude-code", Model: "claude-opus-5-5", Conversation: "c0ffee", Status: 200, Rewrite: "changed",
		TokensBefore: 20000, TokensAfter: 15000, Passes: []telemetry.PassTokens{{Pass: "clear", Changed: 2, Before: 5100, After: 100}},
		Usage: &telemetry.Usage{Input: 1000, CacheWrite: 1000, CacheRead: 14000, Output: 400}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReportCommand(t *testing.T) {
	path := writeReportTelemetry(t)
	dir := filepath.Dir(path)

	code, out, errOut := run(t, "report")
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	page := filepath.Join(dir, "winnow-report.html")
	if !strings.HasPrefix(out, "wrote "+page+" (") || !strings.Contains(out, "2 tool results and 1 proxy requests from ") {
		t.Errorf("report said:\n%s", out)
	}
	body, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!doctype html>", `id="chart-tokens"`, "gh__list&lt;script&gt;", "claude-opus-5-5"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("page lacks %q", want)
		}
	}

	code, out, errOut = run(t, "report", "--since", "50h", "--json")
	if code != 0 {
		t.Fatalf("report --since 50h --json: exit %d: %s", code, errOut)
	}
	var r struct {
		Files  []string `json:"files"`
		Totals struct {
			ToolResults  int     `json:"tool_results"`
			Requests     int     `json:"proxy_requests"`
			GatewaySaved int     `json:"gateway_tokens_saved"`
			ProxySaved   int     `json:"proxy_tokens_saved"`
			HitRatio     float64 `json:"cache_hit_ratio"`
		} `json:"totals"`
		Unit   string `json:"bucket_unit"`
		Series []struct {
			GatewaySaved int `json:"gateway_tokens_saved"`
		} `json:"series"`
		Tools []struct{ Tool string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	saved := 0
	for _, b := range r.Series {
		saved += b.GatewaySaved
	}
	// 50 hours, from the day they start in to today: 3 or 4 days.
	if r.Totals.ToolResults != 1 || r.Totals.Requests != 1 || r.Totals.GatewaySaved != 26000 || r.Totals.ProxySaved != 5000 ||
		r.Totals.HitRatio != 14000.0/16000 || r.Unit != "day" || len(r.Series) < 3 || len(r.Series) > 4 || saved != 26000 ||
		len(r.Tools) != 1 || r.Files[0] != path {
		t.Errorf("--since 50h --json: %+v", r)
	}

	other := filepath.Join(t.TempDir(), "week.html")
	code, out, errOut = run(t, "report", "--file", path, "-o", other)
	if code != 0 || !strings.HasPrefix(out, "wrote "+other) {
		t.Errorf("-o: exit %d: %s%s", code, out, errOut)
	}
	if _, err := os.Stat(other); err != nil {
		t.Error(err)
	}

	code, out, _ = run(t, "report", "-o", "-")
	if code != 0 || !strings.HasPrefix(out, "<!doctype html>") || !strings.HasSuffix(strings.TrimSpace(out), "</html>") {
		t.Errorf("-o -: exit %d:\n%.200s", code, out)
	}
}

// TestReportEmpty: a telemetry file without events still makes a page,
// which says so.
func TestReportEmpty(t *testing.T) {
	dir := filepath.Dir(writeTelemetry(t))
	code, out, errOut := run(t, "report")
	if code != 0 || !strings.Contains(out, "0 tool results and 0 proxy requests\n") {
		t.Fatalf("report: exit %d: %s%s", code, out, errOut)
	}
	body, err := os.ReadFile(filepath.Join(dir, "winnow-report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), "Nothing recorded in this period") || strings.Contains(string(body), `<svg class="chart"`) {
		t.Errorf("empty page:\n%s", body)
	}
}

// fakeOpener puts an executable named like the platform's opener first in
// PATH (and nothing else there); it records the file it was asked to open.
func fakeOpener(t *testing.T, exit int) (record string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the fake opener is xdg-open, a shell script")
	}
	bin := t.TempDir()
	record = filepath.Join(t.TempDir(), "opened")
	script := "#!/bin/sh\nprintf '%s' \"$1\" > '" + record + "'\nexit " + strconv.Itoa(exit) + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	return record
}

func TestReportOpen(t *testing.T) {
	dir := filepath.Dir(writeReportTelemetry(t))
	page := filepath.Join(dir, "winnow-report.html")

	record := fakeOpener(t, 0)
	code, out, errOut := run(t, "report", "--open")
	if code != 0 || !strings.HasSuffix(out, "opened it with xdg-open\n") {
		t.Fatalf("--open: exit %d: %s%s", code, out, errOut)
	}
	if got, err := os.ReadFile(record); err != nil || string(got) != page {
		t.Errorf("xdg-open was asked to open %q (%v), want %q", got, err, page)
	}

	record = fakeOpener(t, 3)
	code, out, errOut = run(t, "report", "--open")
	if code != 0 || !strings.Contains(errOut, "xdg-open "+page+": exit status 3; open "+page+" in a browser") {
		t.Errorf("failing opener: exit %d: %s%s", code, out, errOut)
	}

	t.Setenv("PATH", t.TempDir())
	code, out, errOut = run(t, "report", "--open")
	if code != 0 || !strings.Contains(out, "cannot open it here: xdg-open is not installed; open "+page+" in a browser\n") {
		t.Errorf("no opener: exit %d: %s%s", code, out, errOut)
	}
}

func TestReportErrors(t *testing.T) {
	path := writeTelemetry(t)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "report")
	if code != exitError || !strings.Contains(errOut, "no telemetry at "+path) || !strings.Contains(errOut, "enabled = true") {
		t.Errorf("missing file: exit %d: %s", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--since", "yesterday"}, exitUsage, "--since"},
		{[]string{"--json", "--open"}, exitUsage, "--json prints the report's data instead of writing the page"},
		{[]string{"--json", "-o", "x.html"}, exitUsage, "drop --open and -o"},
		{[]string{"--open", "-o", "-"}, exitUsage, "--open needs a file to open"},
		{[]string{"extra"}, exitUsage, "accepts 0 arg(s)"},
	} {
		code, _, errOut := run(t, append([]string{"report"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.says) {
			t.Errorf("report %v: exit %d: %s", tc.args, code, errOut)
		}
	}

	writeReportTelemetry(t)
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "r.html")
	code, _, errOut = run(t, "report", "-o", missing)
	if code != exitError || !strings.Contains(errOut, "write report: open "+missing) {
		t.Errorf("-o into a missing directory: exit %d: %s", code, errOut)
	}
}
