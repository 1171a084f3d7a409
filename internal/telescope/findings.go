package telescope

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// A finding is one finding-shaped record of a report: something with a severity, an
// identifier, a title and where it is.
type finding struct {
	Line     int // where the record starts in the report
	Severity string
	IDs      []string
	Title    string
	Location string
}

var (
	severityLabel = lazy(`(?i)\b(severity|risk|impact|priority|level|rating)\b\W{0,4}(critical|high|medium|moderate|low|info(?:rmational)?|error|warning|note)\b`)
	severityTag   = lazy(`(?i)(?:^|[\s\[(|])(critical|high|medium|moderate|low|informational)(?:[\])|:]|\s*\|)`)
	severityLead  = lazy(`^\s*(?:[-*+]\s+)?\[?(CRITICAL|HIGH|MEDIUM|MODERATE|LOW)\]?[:\s-]`)
	findingIDs    = lazy(`\b(CVE-\d{4}-\d{4,}|CWE-\d+|GHSA(?:-[0-9a-z]{4}){3}|OSV-\d{4}-\d+|RUSTSEC-\d{4}-\d+|PYSEC-\d{4}-\d+)\b`)
	findingWord   = lazy(`(?i)\b(finding|issue|vulnerabilit(y|ies)|weakness|bug)\s*(#|no\.?|number)?\s*[A-Z]*-?\d+`)
	fileLocation  = lazy("`?([\\w./-]+\\.[a-zA-Z]{1,5}):(\\d+)`?")
	markerComment = lazy(`\b(TODO|FIXME|XXX|HACK|BUG|SECURITY|nosec|NOSONAR|nolint|noqa|eslint-disable\S*|type:\s*ignore)\b`)
)

// findings is audit_findings: the finding-shaped records of reports. In prose, a section
// whose heading or text carries a severity label, an identifier (CVE, CWE, GHSA …) or a
// "Finding 3"-style name, and lines led by a severity; in tables and JSON (SARIF, Semgrep,
// Bandit, gosec and the like), each record with at least two of severity, rule, message and
// location. In code, the comments that mark known problems (TODO, FIXME, SECURITY, nosec …).
func findings(ctx context.Context, u *Unit) (Abstract, error) {
	var fs []finding
	switch u.Kind {
	case UnitDoc:
		fs = proseFindings(u)
	case UnitData:
		fs = dataFindings(u)
	default:
		syms, err := u.Symbols(ctx)
		if err != nil {
			return Abstract{}, err
		}
		for i, l := range u.Lines() {
			if c, ok := commentText(l); ok && markerComment.MatchString(c) {
				fs = append(fs, finding{Line: i + 1, Title: clip(c, 160), Location: strings.TrimPrefix(enclosing(syms, i+1), " in ")})
			}
		}
	}
	var b strings.Builder
	head := findingSummary(fs)
	fmt.Fprintf(&b, "%s (%s): %s\n", u.Path, u.Lang, head)
	for _, f := range fs {
		fmt.Fprintf(&b, "L%d", f.Line)
		if f.Severity != "" {
			fmt.Fprintf(&b, " [%s]", strings.ToLower(f.Severity))
		}
		fmt.Fprintf(&b, " %s", f.Title)
		if len(f.IDs) > 0 {
			fmt.Fprintf(&b, " — %s", strings.Join(f.IDs, ", "))
		}
		if f.Location != "" {
			fmt.Fprintf(&b, " — %s", f.Location)
		}
		b.WriteString("\n")
	}
	a := Abstract{Text: b.String(), Headline: head}
	if u.Kind == UnitDoc {
		a.Parts = docOutline(u).Parts
	}
	return a, nil
}

func findingSummary(fs []finding) string {
	if len(fs) == 0 {
		return "no findings"
	}
	counts := map[string]int{}
	var order []string
	for _, f := range fs {
		s := strings.ToLower(f.Severity)
		if s == "" {
			s = "unrated"
		}
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	var cs []string
	for _, s := range order {
		cs = append(cs, fmt.Sprintf("%d %s", counts[s], s))
	}
	return fmt.Sprintf("%s (%s)", plural(len(fs), "finding", "findings"), strings.Join(cs, ", "))
}

// proseFindings reads a report in prose: finding sections, then severity-led lines and
// table rows outside them.
func proseFindings(u *Unit) []finding {
	lines := u.Lines()
	var out []finding
	covered := map[int]bool{}
	for _, s := range sections(u) {
		if s.Title == "(preamble)" || s.Title == u.Path || s.StartLine > s.EndLine {
			continue
		}
		body := strings.Join(lines[s.StartLine-1:min(s.EndLine, s.StartLine+15)], "\n")
		sev := severityOf(body)
		ids := unique(findingIDs.FindAllString(strings.Join(lines[s.StartLine-1:s.EndLine], "\n"), 8))
		if sev == "" && len(ids) == 0 && !findingWord.MatchString(s.Title) {
			continue
		}
		out = append(out, finding{Line: s.StartLine, Severity: sev, IDs: ids, Title: clip(s.Title, 160), Location: locationIn(lines[s.StartLine-1 : s.EndLine])})
		for n := s.StartLine; n <= s.EndLine; n++ {
			covered[n] = true
		}
	}
	sevCol := -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if covered[i+1] || t == "" {
			continue
		}
		if strings.HasPrefix(t, "|") { // a Markdown table row
			cells := strings.Split(strings.Trim(t, "|"), "|")
			if sevCol < 0 {
				for k, c := range cells {
					if strings.EqualFold(strings.TrimSpace(c), "severity") || strings.EqualFold(strings.TrimSpace(c), "risk") {
						sevCol = k
					}
				}
				continue
			}
			if sevCol < len(cells) {
				if sev := strings.TrimSpace(cells[sevCol]); severityWord(sev) {
					out = append(out, finding{Line: i + 1, Severity: sev, IDs: unique(findingIDs.FindAllString(t, 4)), Title: clip(rowTitle(cells, sevCol), 160), Location: locationIn([]string{t})})
				}
			}
			continue
		}
		sevCol = -1
		if m := severityLead.FindStringSubmatch(t); m != nil {
			out = append(out, finding{Line: i + 1, Severity: m[1], IDs: unique(findingIDs.FindAllString(t, 4)), Title: clip(strings.TrimLeft(t[len(m[0]):], " -:"), 160), Location: locationIn([]string{t})})
		}
	}
	return out
}

func severityOf(text string) string {
	if m := severityLabel.FindStringSubmatch(text); m != nil {
		return m[2]
	}
	if m := severityTag.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

func severityWord(s string) bool {
	switch strings.ToLower(strings.Trim(s, "*_ ")) {
	case "critical", "high", "medium", "moderate", "low", "info", "informational", "error", "warning", "note":
		return true
	}
	return false
}

// rowTitle is the longest cell of a table row other than the severity.
func rowTitle(cells []string, skip int) string {
	best := ""
	for k, c := range cells {
		if c = strings.TrimSpace(c); k != skip && len(c) > len(best) {
			best = c
		}
	}
	return best
}

func locationIn(lines []string) string {
	for _, l := range lines {
		if m := fileLocation.FindStringSubmatch(l); m != nil {
			return m[1] + ":" + m[2]
		}
	}
	return ""
}

func unique(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// dataFindings reads records from JSON (any array of objects, however deep: SARIF's
// runs[].results[], Semgrep's results[], gosec's Issues[]), JSON Lines and tables.
func dataFindings(u *Unit) []finding {
	switch u.Lang {
	case "csv", "tsv":
		rows, lines, _ := records(u)
		if len(rows) < 2 {
			return nil
		}
		var out []finding
		for i, row := range rows[1:] {
			obj := map[string]any{}
			for k, h := range rows[0] {
				if k < len(row) {
					obj[strings.ToLower(strings.TrimSpace(h))] = row[k]
				}
			}
			if f, ok := recordFinding(obj); ok {
				f.Line = lines[i+1]
				out = append(out, f)
			}
		}
		return out
	case "jsonl":
		var out []finding
		for i, l := range u.Lines() {
			var v any
			if json.Unmarshal([]byte(l), &v) == nil {
				for _, f := range jsonFindings(v, 0) {
					f.Line = i + 1
					out = append(out, f)
				}
			}
		}
		return out
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(u.Content))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	return jsonFindings(v, 0)
}

// jsonFindings walks v for finding-shaped objects. JSON carries no line numbers once decoded,
// so their Line is 0 and the listing shows their order.
func jsonFindings(v any, depth int) []finding {
	if depth > 8 {
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		if f, ok := recordFinding(x); ok {
			return []finding{f}
		}
		var out []finding
		for _, k := range sortedKeys(x) {
			out = append(out, jsonFindings(x[k], depth+1)...)
		}
		return out
	case []any:
		var out []finding
		for _, e := range x {
			out = append(out, jsonFindings(e, depth+1)...)
		}
		return out
	}
	return nil
}

// Field names, by role, as the common report formats spell them; matched against the last
// part of a flattened key (message.text → text is not a title, so full paths are tried first).
var findingFields = map[string][]string{
	"severity": {"severity", "level", "issue_severity", "extra.severity", "properties.severity", "risk", "impact"},
	"rule":     {"ruleid", "rule_id", "check_id", "test_id", "rule", "cwe", "cve", "vulnerabilityid", "advisory"},
	"title":    {"message.text", "extra.message", "message", "issue_text", "title", "details", "description", "summary"},
	"file":     {"locations.0.physicallocation.artifactlocation.uri", "path", "file", "filename", "uri", "location"},
	"line":     {"locations.0.physicallocation.region.startline", "start.line", "line", "line_number", "startline"},
}

// recordFinding reads obj as a finding if it has at least two of severity, rule, title and
// file.
func recordFinding(obj map[string]any) (finding, bool) {
	flat := map[string]string{}
	flatten(obj, "", flat, 0)
	get := func(role string) string {
		for _, k := range findingFields[role] {
			if v, ok := flat[k]; ok && v != "" {
				return v
			}
		}
		return ""
	}
	sev, rule, title, file := get("severity"), get("rule"), get("title"), get("file")
	n := 0
	for _, s := range []string{sev, rule, title, file} {
		if s != "" {
			n++
		}
	}
	if n < 2 || (sev == "" && rule == "") {
		return finding{}, false
	}
	if line := get("line"); file != "" && line != "" {
		file += ":" + line
	}
	f := finding{Severity: sev, Title: clip(title, 160), Location: file}
	if rule != "" {
		f.IDs = []string{rule}
	}
	if f.Title == "" {
		f.Title = rule
	}
	return f, true
}

// flatten writes obj's scalar leaves under lower-cased dotted keys (arrays by index, only
// their first element), to depth 6.
func flatten(v any, prefix string, out map[string]string, depth int) {
	if depth > 6 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(e, prefix+strings.ToLower(k)+".", out, depth+1)
		}
	case []any:
		if len(x) > 0 {
			flatten(x[0], prefix+"0.", out, depth+1)
		}
	case nil:
	default:
		out[strings.TrimSuffix(prefix, ".")] = strings.TrimSpace(fmt.Sprint(x))
	}
}
