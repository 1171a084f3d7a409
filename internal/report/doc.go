// Package report turns the telemetry of winnow's MCP gateway and LLM proxy
// into one self-contained HTML page, for `winnow report`: what winnow saved,
// in tokens and in dollars, over time, per tool, per gateway layer, per
// compaction pass, per model and client, how often the provider's prompt
// cache hit, and the sessions and conversations that saved most.
//
// A [Builder] takes the events as telemetry.ScanFile reads them. It hands
// each to a telemetry.Summary, the aggregate behind `winnow stats`, so the
// totals, the per-tool, per-pass, per-model and per-client lists and the
// dollars (list prices, cache-aware; see telemetry.ProxySummary) are the
// same numbers stats prints. What the page needs besides, it sums itself:
// each event's saving into the bucket of its local hour (priced event by
// event with telemetry.CostOf), and into its session (the gateway) or
// conversation (the proxy).
//
// The time series rolls the hours up into buckets whose width suits the
// period: hours when it spans up to two days (whole days, so one day of use
// reads as its 24 hours), days up to about six months, weeks (from Monday)
// up to four years, months beyond; a period of more than 240 units gets
// buckets of several units. With a --since period the series covers it
// all, quiet days included. Each chart labels at most 8 buckets, at steps
// that read naturally (every 3 hours, every week, every quarter).
//
// The page's size does not grow with the number of events: at most 240
// buckets, 15 rows per table, 10 sessions and 10 conversations, every name
// cut to 120 characters. 100,000 events render into well under 2 MB
// (BenchmarkBuildAndRender).
//
// [Render] draws the charts here, as inline SVG with a tooltip per mark
// (an SVG <title>), so they need no script; the style is inline. The page
// loads nothing from anywhere, and its Content-Security-Policy holds it to
// that: no source but its own style sheet and one script, both named by
// hash. That script does nothing unless the page's address ends in
// #measure, when it writes the sizes of the charts, their marks and their
// labels into a <pre> for the browser test. Every name from the telemetry
// (tools, models, clients, session hashes) is untrusted and goes through
// html/template's escaping.
//
// The package reads no configuration and decides nothing about where the
// telemetry is or where the page goes; the command line does.
package report
