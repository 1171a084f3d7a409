package report

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

var (
	//go:embed page.html.tmpl
	pageText string
	//go:embed page.css
	pageCSS string
	//go:embed measure.js
	measureJS string
)

// maxNameRunes bounds every name from the telemetry on the page (tools,
// models, clients, passes): the names are the agent's and the upstreams',
// not winnow's, and a page must stay small whatever they are.
const maxNameRunes = 120

// pageTemplate parses the page's template on first use: parsing it when
// the program starts cost every winnow process some 0.3 ms.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"short":     func(n int) string { return short(float64(n)) },
		"thousands": thousands,
		"usd":       usd,
		"percent":   percent,
		"share":     share,
		"name":      func(s string) string { return cut(s, maxNameRunes) },
		"hit":       hitRatio,
		"musd":      modelUSD,
		"sub":       func(a, b int) int { return a - b },
	}).Parse(pageText))
})

// csp lets the page load nothing and run nothing but its own style sheet
// and measuring script, named by their hashes: the page cannot reach the
// network even if a name in the telemetry tried to.
var csp = fmt.Sprintf("default-src 'none'; style-src '%s'; script-src '%s'", sha(pageCSS), sha(measureJS))

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(h[:])
}

// page is what the template renders: the report, its charts, and the
// inline style and script.
type page struct {
	*Report
	CSS template.CSS
	JS  template.JS
	CSP string

	Tokens, Cost, Cache                  *timeChart
	ToolChart, LayerChart, PassChart     *barChart
	ModelChart                           *barChart
	EmptyProxy, EmptyGateway, EmptyUsage string
}

// Render writes r as one self-contained HTML page: inline style, inline
// SVG charts drawn here (they need no script), nothing loaded from
// anywhere. Every name from the telemetry is escaped by html/template.
func Render(w io.Writer, r *Report) error {
	p := &page{Report: r, CSS: template.CSS(pageCSS), JS: template.JS(measureJS), CSP: csp}
	p.empties()
	p.timeCharts()
	p.barCharts()
	var buf bytes.Buffer
	if err := pageTemplate().Execute(&buf, p); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// empties words the empty states that several sections share.
func (p *page) empties() {
	t := p.Totals
	if t.ToolResults == 0 {
		p.EmptyGateway = "No tool results recorded in this period. The MCP gateway (winnow mcp with [[upstream]] servers) records one per call when [telemetry] enabled = true."
	}
	switch {
	case t.Requests == 0:
		p.EmptyProxy = "No proxy requests recorded in this period. winnow proxy records one per request when [telemetry] enabled = true."
		p.EmptyUsage = p.EmptyProxy
	case t.WithUsage == 0:
		p.EmptyUsage = "No proxy response reported usage, so there is nothing to price and no cache hits to count."
	}
}

func (p *page) timeCharts() {
	r := p.Report
	p.Tokens = newTimeChart("chart-tokens", "Tokens saved per "+p.UnitName(), r)
	p.Cost = newTimeChart("chart-cost", "Dollars saved per "+p.UnitName(), r)
	p.Cache = newTimeChart("chart-cache", "Prompt-cache hit ratio per "+p.UnitName(), r)
	if r.Totals.ToolResults+r.Totals.Requests == 0 {
		p.Tokens.Empty = "Nothing recorded in this period: no tool results, no proxy requests."
	} else {
		p.Tokens.stackedBars(r, []seriesSpec{
			{"s0", func(b Bucket) float64 { return float64(b.GatewaySaved) }},
			{"s1", func(b Bucket) float64 { return float64(b.ProxySaved) }},
		}, short, func(b Bucket) string {
			return fmt.Sprintf("%s tokens saved by the gateway (%s tool results), %s by the proxy (%s requests)",
				thousands(b.GatewaySaved), thousands(b.ToolResults), thousands(b.ProxySaved), thousands(b.Requests))
		})
	}
	switch {
	case p.EmptyUsage != "":
		p.Cost.Empty = p.EmptyUsage
	case r.Totals.CostBilled == 0 && r.Totals.Unpriced > 0:
		p.Cost.Empty = "Every request with usage went to a model with no list price here (" + cut(strings.Join(r.Totals.UnpricedModels, ", "), maxNameRunes) + "); dollars are never guessed."
	case r.Totals.CostSaved == 0:
		p.Cost.Empty = "Compaction saved no priced tokens in this period."
	default:
		p.Cost.stackedBars(r, []seriesSpec{{"s2", func(b Bucket) float64 { return b.CostSaved }}}, axisUSD,
			func(b Bucket) string {
				return fmt.Sprintf("≈ %s saved over %s requests", usd(b.CostSaved), thousands(b.Requests))
			})
	}
	if p.EmptyUsage != "" {
		p.Cache.Empty = p.EmptyUsage
	} else {
		p.Cache.ratioLine(r, Bucket.HitRatio, func(b Bucket) string {
			v, _ := b.HitRatio()
			return fmt.Sprintf("%s of %s prompt tokens read from the cache", percent(v), thousands(b.Prompt))
		})
	}
}

func (p *page) barCharts() {
	r := p.Report
	var tools, layers, passes, models []entry
	for _, t := range r.Tools[:min(len(r.Tools), 10)] {
		tools = append(tools, entry{t.Tool, fmt.Sprintf("%s calls, %s → %s tokens", thousands(t.Calls), thousands(t.Before), thousands(t.After)),
			short(float64(t.Before-t.After)) + " (" + share(t.Before-t.After, t.Before) + ")", float64(t.Before - t.After)})
	}
	l := r.Layers
	for _, x := range []struct {
		name string
		s    telemetry.LayerSavings
		what string
	}{{"dedup", l.Dedup, "duplicates replaced by references"}, {"encoding", l.Encoding, "results re-encoded losslessly"}, {"trimming", l.Trimming, "results cut to the call budget"}} {
		layers = append(layers, entry{x.name, fmt.Sprintf("%s %s, %s tokens saved", thousands(x.s.Calls), x.what, thousands(x.s.Tokens)),
			short(float64(x.s.Tokens)) + " (" + share(x.s.Tokens, r.Totals.GatewayBefore) + ")", float64(x.s.Tokens)})
	}
	for _, s := range r.Passes {
		passes = append(passes, entry{s.Pass, fmt.Sprintf("%s requests, %s parts changed, %s tokens, ≈ %s saved", thousands(s.Requests), thousands(s.Changed), thousands(s.Tokens), usd(s.SavedUSD)),
			short(float64(s.Tokens)) + " · " + usd(s.SavedUSD), float64(s.Tokens)})
	}
	for _, m := range r.Models[:min(len(r.Models), 10)] {
		models = append(models, entry{m.Name, fmt.Sprintf("%s requests, %s → %s tokens", thousands(m.Requests), thousands(m.Tokens.Before), thousands(m.Tokens.After)),
			short(float64(m.Tokens.Saved)) + " · " + modelUSD(m), float64(m.Tokens.Saved)})
	}
	p.ToolChart = newBarChart("chart-tools", "Tokens saved per tool", "s0", nameCut(tools))
	p.LayerChart = newBarChart("chart-layers", "Tokens saved per gateway layer", "s0", layers)
	p.PassChart = newBarChart("chart-passes", "Tokens saved per compaction pass", "s1", nameCut(passes))
	p.ModelChart = newBarChart("chart-models", "Tokens saved per model", "s1", nameCut(models))
	p.ToolChart.Empty, p.LayerChart.Empty = p.EmptyGateway, p.EmptyGateway
	p.PassChart.Empty, p.ModelChart.Empty = p.EmptyProxy, p.EmptyProxy
	if p.PassChart.Empty == "" && len(passes) == 0 {
		p.PassChart.Empty = "No compaction pass changed a request in this period."
	}
}

// nameCut bounds the names of entries from the telemetry.
func nameCut(es []entry) []entry {
	for i := range es {
		es[i].label = cut(es[i].label, maxNameRunes)
	}
	return es
}

// modelUSD is a model's dollars saved, or why it has none.
func modelUSD(g telemetry.GroupSummary) string {
	switch {
	case g.WithUsage == 0:
		return "no usage"
	case g.Unpriced == g.WithUsage:
		return "unpriced"
	}
	return usd(g.Cost.SavedCompaction + g.Cost.SavedServerEdits)
}

// hitRatio is the share of u's prompt tokens read from the cache, "–"
// without any.
func hitRatio(u telemetry.Usage) string { return share(u.CacheRead, u.Prompt()) }

// UnitName names one bucket of the series: "day", or "3 days".
func (p *page) UnitName() string {
	if p.Every > 1 {
		return fmt.Sprintf("%d %ss", p.Every, p.Unit)
	}
	return p.Unit
}

// When formats t in the report's time zone.
func (p *page) When(t time.Time) string {
	return t.In(p.Generated.Location()).Format("2 Jan 2006 15:04")
}

// Period says what the report covers.
func (p *page) Period() string {
	switch {
	case !p.First.IsZero() && !p.Since.IsZero():
		return fmt.Sprintf("%s to %s (events from %s)", p.When(p.Since), p.When(p.Generated), p.When(p.First))
	case !p.First.IsZero():
		return fmt.Sprintf("%s to %s", p.When(p.First), p.When(p.Last))
	case !p.Since.IsZero():
		return fmt.Sprintf("since %s", p.When(p.Since))
	}
	return "no events yet"
}

// Zone names the report's time zone.
func (p *page) Zone() string { return p.Generated.Format("MST") }

// Duration formats the span of a session.
func (p *page) Duration(s Session) string {
	d := s.Last.Sub(s.First)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%.1fh", d.Hours())
	}
	return fmt.Sprintf("%.0fd", d.Hours()/24)
}

// Names lists names from the telemetry, bounded.
func (p *page) Names(names []string) string { return cut(strings.Join(names, ", "), maxNameRunes) }
