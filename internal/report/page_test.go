package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

func render(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRenderEscapes: tool, model and client names and session hashes come
// from the telemetry and must never become markup.
func TestRenderEscapes(t *testing.T) {
	hostile := []string{
		`<script>alert(1)</script>`,
		`"><img src=x onerror=alert(2)>`,
		`</title><script>alert(3)</script>`,
		`</style><script>alert(4)</script>`,
		`]]><svg onload=alert(5)>`,
	}
	var tools []telemetry.Event
	var proxy []telemetry.ProxyEvent
	for i, h := range hostile {
		at := t0.Add(time.Duration(i) * time.Minute)
		tools = append(tools, gatewayEvent(at, h, h, 1000, 100))
		ev := proxyEvent(at, h, h, 1000, 500, &telemetry.Usage{Input: 100, CacheRead: 400})
		ev.Client = h
		ev.Passes[0].Pass = h
		proxy = append(proxy, ev)
	}
	page := render(t, build(&Options{Location: time.UTC}, tools, proxy))
	if n := strings.Count(page, "<script"); n != 1 {
		t.Errorf("%d <script elements, want only the page's own", n)
	}
	for _, bad := range []string{"<img", "<svg onload", "alert(1)</script>", "</title><script"} {
		if strings.Contains(page, bad) {
			t.Errorf("page holds %q unescaped", bad)
		}
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the tool's name is not on the page, escaped")
	}
}

// TestRenderSelfContained: nothing on the page points anywhere, and its
// Content-Security-Policy names exactly the style and script it holds.
func TestRenderSelfContained(t *testing.T) {
	page := render(t, build(&Options{Location: time.UTC}, []telemetry.Event{gatewayEvent(t0, "a", "s", 10, 5)}, nil))
	for _, ref := range []string{"http:", "https:", "file:", "url(", "@import", "@font-face", " src=", " href=", "<link", "<img", "<iframe", "<object", "<embed"} {
		if strings.Contains(page, ref) {
			t.Errorf("page holds %q", ref)
		}
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]+)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no Content-Security-Policy")
	}
	style := between(t, page, "<style>", "</style>")
	script := between(t, page, "<script>", "</script>")
	want := "default-src 'none'; style-src '" + sha(style) + "'; script-src '" + sha(script) + "'"
	if got := html.UnescapeString(m[1]); got != want {
		t.Errorf("policy %s\nwant   %s (the hashes of the style and script on the page)", got, want)
	}
}

func between(t *testing.T, s, open, close string) string {
	t.Helper()
	i := strings.Index(s, open)
	j := strings.Index(s, close)
	if i < 0 || j < i {
		t.Fatalf("no %s…%s", open, close)
	}
	return s[i+len(open) : j]
}

// TestRenderEmptyStates: each section with no data says so, and why,
// instead of drawing an empty chart.
func TestRenderEmptyStates(t *testing.T) {
	gw := []telemetry.Event{gatewayEvent(t0, "github__list_issues", "s", 1000, 200)}
	px := []telemetry.ProxyEvent{proxyEvent(t0, "c", "claude-opus-5-5", 10000, 8000, &telemetry.Usage{Input: 1000, CacheRead: 9000})}
	unpriced := []telemetry.ProxyEvent{proxyEvent(t0, "c", "gpt-5.5-codex", 10000, 8000, &telemetry.Usage{Input: 1000, CacheRead: 9000})}
	noUsage := []telemetry.ProxyEvent{proxyEvent(t0, "c", "claude-opus-5-5", 10000, 8000, nil)}
	all := []string{"chart-tokens", "chart-cost", "chart-cache", "chart-tools", "chart-layers", "chart-passes", "chart-models"}
	for _, tc := range []struct {
		name   string
		gw     []telemetry.Event
		px     []telemetry.ProxyEvent
		charts []string // drawn; the others are empty states
		says   string
	}{
		{"nothing", nil, nil, nil, "Nothing recorded in this period"},
		{"gateway only", gw, nil, []string{"chart-tokens", "chart-tools", "chart-layers"}, "No proxy requests recorded in this period"},
		{"proxy only", nil, px, []string{"chart-tokens", "chart-cost", "chart-cache", "chart-passes", "chart-models"}, "No tool results recorded in this period"},
		{"unpriced", nil, unpriced, []string{"chart-tokens", "chart-cache", "chart-passes", "chart-models"}, "no list price here (gpt-5.5-codex)"},
		{"no usage", gw, noUsage, []string{"chart-tokens", "chart-tools", "chart-layers", "chart-passes", "chart-models"}, "No proxy response reported usage"},
		{"both", gw, px, all, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := render(t, build(&Options{Location: time.UTC}, tc.gw, tc.px))
			for _, id := range all {
				drawn := strings.Contains(page, `<svg class="chart" id="`+id+`"`)
				empty := strings.Contains(page, `<div class="empty" id="empty-`+id+`"`)
				want := strings.Contains(strings.Join(tc.charts, " "), id)
				if drawn != want || empty == want {
					t.Errorf("%s: drawn %v, empty state %v; want drawn %v", id, drawn, empty, want)
				}
			}
			if !strings.Contains(page, tc.says) {
				t.Errorf("page does not say %q", tc.says)
			}
		})
	}
}

// TestRenderBounded: the page's size does not grow with the telemetry:
// tables are capped, names cut, and the series bounded, even for
// thousands of tools, sessions and models with huge names over decades.
func TestRenderBounded(t *testing.T) {
	long := strings.Repeat("x", 10_000)
	var tools []telemetry.Event
	var proxy []telemetry.ProxyEvent
	for i := range 2000 {
		at := time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 13 * time.Hour * 24)
		name := long + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
		tools = append(tools, gatewayEvent(at, name, name, 1000+i, 10))
		ev := proxyEvent(at, name, name, 2000+i, 10, &telemetry.Usage{Input: 10, CacheRead: 90})
		ev.Client = name
		proxy = append(proxy, ev)
	}
	r := build(&Options{Location: time.UTC}, tools, proxy)
	page := render(t, r)
	if len(page) > 512<<10 {
		t.Errorf("page is %d bytes", len(page))
	}
	if strings.Contains(page, strings.Repeat("x", maxNameRunes+1)) {
		t.Errorf("a name longer than %d characters is on the page", maxNameRunes)
	}
	if n := strings.Count(page, "<tr><td><code>"); n != maxRows*2+maxSessions*2 {
		t.Errorf("%d table rows with names, want %d", n, maxRows*2+maxSessions*2)
	}
	if len(r.Series) > maxBuckets || strings.Count(page, `class="xl"`) > 3*maxXLabels {
		t.Errorf("%d buckets, %d x labels", len(r.Series), strings.Count(page, `class="xl"`))
	}
}

// TestAxisLabels: a time chart labels at most maxXLabels buckets, on
// natural steps, whatever the span.
func TestAxisLabels(t *testing.T) {
	for _, tc := range []struct {
		name  string
		span  time.Duration
		first string
		want  []string
	}{
		{"a day", 5 * time.Hour, "Wed 4 Mar", []string{"Wed 4 Mar", "03:00", "06:00", "09:00", "12:00", "15:00", "18:00", "21:00"}},
		{"two days", 40 * time.Hour, "Wed 4 Mar", []string{"Wed 4 Mar", "12:00", "Thu 5 Mar", "12:00", "Fri 6 Mar", "12:00"}},
		{"a month", 30 * 24 * time.Hour, "", []string{"4 Mar 2026", "11 Mar", "18 Mar", "25 Mar", "1 Apr"}},
		{"a year", 365 * 24 * time.Hour, "", []string{"2 Mar 2026", "27 Apr", "22 Jun", "17 Aug", "12 Oct", "7 Dec", "1 Feb 2027"}},
		{"ten years", 3650 * 24 * time.Hour, "", []string{"Mar 2026", "Mar 2028", "Mar 2030", "Mar 2032", "Mar 2034", "Mar 2036"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := build(&Options{Location: time.UTC}, []telemetry.Event{gatewayEvent(t0, "a", "s", 10, 5), gatewayEvent(t0.Add(tc.span), "a", "s", 10, 5)}, nil)
			c := newTimeChart("c", "c", r)
			var got []string
			for _, l := range c.XLabels {
				got = append(got, l.Label)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("labels %q\nwant %q", got, tc.want)
			}
			if len(got) > maxXLabels {
				t.Errorf("%d labels", len(got))
			}
		})
	}
}

func TestNiceScale(t *testing.T) {
	for _, tc := range []struct{ peak, top, step float64 }{
		{0, 1, 0.25}, {7, 8, 2}, {10, 10, 2.5}, {38_000_000, 40_000_000, 10_000_000}, {0.0031, 0.004, 0.001}, {23.4, 30, 10}, {0.9, 1, 0.25},
	} {
		top, step := niceScale(tc.peak)
		if top != tc.top || step != tc.step {
			t.Errorf("niceScale(%v) = %v, %v; want %v, %v", tc.peak, top, step, tc.top, tc.step)
		}
	}
}

func TestFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{short(950), "950"}, {short(12_345), "12.3k"}, {short(1_000), "1k"}, {short(4_560_000), "4.56M"}, {short(-2_500), "-2.5k"}, {short(1.2e9), "1.2B"},
		{thousands(0), "0"}, {thousands(1234567), "1,234,567"}, {thousands(-1000), "-1,000"}, {thousands(999), "999"},
		{usd(0), "$0"}, {usd(1234.4), "$1,234"}, {usd(12.345), "$12.35"}, {usd(0.269), "$0.27"}, {usd(0.5), "$0.50"}, {usd(0.00123), "$0.0012"}, {usd(0.00004), "$4e-05"},
		{axisUSD(0), "$0"}, {axisUSD(0.25), "$0.25"}, {axisUSD(2.5), "$2.5"}, {axisUSD(100), "$100"}, {axisUSD(0.0005), "$0.0005"},
		{percent(0.8312), "83.1%"}, {percent(1), "100%"}, {share(1, 4), "25%"}, {share(1, 0), "–"},
		{cut("abcdef", 4), "abc…"}, {cut("abc", 4), "abc"}, {cut("ééééé", 3), "éé…"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
