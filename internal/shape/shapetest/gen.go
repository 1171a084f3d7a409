package shapetest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A Kind is a kind of generated document.
type Kind string

// The kinds Generate makes: JSON arrays of objects shaped like the REST
// responses of GitHub (issues, pull requests) and GitLab (pipelines).
const (
	Issues       Kind = "issues"
	PullRequests Kind = "pull_requests"
	Pipelines    Kind = "pipelines"
)

// Kinds lists every Kind.
func Kinds() []Kind { return []Kind{Issues, PullRequests, Pipelines} }

// Generate returns a pretty-printed JSON array of n objects of the given
// kind. The same kind, n and seed give the same bytes on every machine.
//
// The objects have what real responses have and what makes re-encoding
// hard: nested user, label and status objects; arrays of objects; keys
// that only some objects have (pull_request, closed_by, coverage); null
// and empty values; numbers that must keep their literal text (1e400,
// 0.10, -0.0, a 36-digit decimal); and strings with commas, quotes,
// pipes, colons, tabs, line breaks, leading spaces, non-ASCII letters and
// emoji, or that look like numbers and keywords ("007", "null", "1e3").
func Generate(kind Kind, n int, seed uint64) (Doc, error) {
	if n < 0 {
		return Doc{}, fmt.Errorf("generate %s: negative count %d", kind, n)
	}
	var item func(g *gen, i int) obj
	switch kind {
	case Issues:
		item = (*gen).issue
	case PullRequests:
		item = (*gen).pullRequest
	case Pipelines:
		item = (*gen).pipeline
	default:
		return Doc{}, fmt.Errorf("generate: unknown kind %q (want issues, pull_requests or pipelines)", kind)
	}
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(len(kind))))}
	items := make([]any, n)
	for i := range items {
		items[i] = item(g, i)
	}
	var b bytes.Buffer
	writePretty(&b, items, 0)
	b.WriteByte('\n')
	return Doc{Name: fmt.Sprintf("%s×%d", kind, n), Text: b.String()}, nil
}

// gen draws the parts of generated objects.
type gen struct {
	r *rand.Rand
}

const (
	repo    = "acme/rocket"
	apiBase = "https://api.github.com/repos/" + repo
	webBase = "https://github.com/" + repo
)

var (
	logins = []string{"octocat", "hubot", "ana-lima", "bo.chen", "zoë", "dev_42", "renovate[bot]", "m|pipe", "ellis-o'neil", "sato-健"}
	words  = []string{"crash", "on", "start", "when", "the", "config", "is", "missing", "fix", "typo", "in", "docs", "add",
		"support", "for", "arm64", "retry", "flaky", "test", "timeout", "memory", "leak", "panic", "nil", "pointer",
		"slow", "query", "cache", "invalidation", "überarbeiten", "日本語", "ошибка", "🚀", "v2.1.0", "404", "CI"}
	specials = []string{"Docs: typo, page 2", `Quote "this" please`, "a | b | c", "line one\nline two", " leading space",
		"trailing space ", "007", "null", "1e3", "true", "-", "", "tab\there", "{not json}", "[wip] draft", `back\slash`,
		"emoji 🎉 party", "Ünïcödé ✓", "#123", "key: value", "C:\\path\\file.go", "50%", "\"quoted\""}
	labelNames = []string{"bug", "enhancement", "good first issue", "help wanted", "P1", "area/cli", "needs: triage", "won't fix"}
	numbers    = []num{"1", "0.10", "1e400", "-0.0", "12.50", "3.141592653589793238462643383279502884", "1E-7", "0"}
)

func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// sentence is 3–9 words, sometimes replaced by a hard string.
func (g *gen) sentence() string {
	if g.chance(0.15) {
		return g.pick(specials)
	}
	n := 3 + g.r.IntN(7)
	w := make([]string, n)
	for i := range w {
		w[i] = g.pick(words)
	}
	s := strings.Join(w, " ")
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// body is null or a few paragraphs of markdown with line breaks.
func (g *gen) body() any {
	if g.chance(0.2) {
		return nil
	}
	var b strings.Builder
	for i := range 1 + g.r.IntN(3) {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(g.sentence())
		b.WriteString(". ")
		b.WriteString(g.sentence())
		if g.chance(0.3) {
			b.WriteString("\n\n```\n$ rocket launch --dry-run | tee out.log\nerror: \"config\" missing\n```")
		}
		if g.chance(0.2) {
			b.WriteString("\n\n| step | result |\n|---|---|\n| build | ok |")
		}
	}
	return b.String()
}

// when is a timestamp in 2025, formatted as GitHub does.
func (g *gen) when() string {
	t := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(g.r.Int64N(365*24*3600)) * time.Second)
	return t.Format(time.RFC3339)
}

func (g *gen) user() obj {
	login := g.pick(logins)
	id := 1000 + g.r.IntN(9_000_000)
	return obj{
		{"login", login},
		{"id", id},
		{"node_id", fmt.Sprintf("MDQ6VXNlcj%07d", id)},
		{"avatar_url", fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", id)},
		{"html_url", "https://github.com/" + login},
		{"type", userType(login)},
		{"site_admin", false},
	}
}

func userType(login string) string {
	if strings.HasSuffix(login, "[bot]") {
		return "Bot"
	}
	return "User"
}

func (g *gen) labels() []any {
	out := []any{}
	for range g.r.IntN(4) {
		name := g.pick(labelNames)
		l := obj{
			{"id", 100000 + g.r.IntN(900000)},
			{"name", name},
			{"color", fmt.Sprintf("%06x", g.r.IntN(1<<24))},
			{"default", name == "bug" || name == "enhancement"},
		}
		if g.chance(0.5) {
			l = append(l, field{"description", g.sentence()})
		}
		out = append(out, l)
	}
	return out
}

func (g *gen) issue(i int) obj {
	number := 1000 - i
	state := "open"
	if g.chance(0.4) {
		state = "closed"
	}
	var assignee any
	assignees := []any{}
	if g.chance(0.5) {
		u := g.user()
		assignee, assignees = u, []any{u}
	}
	var milestone any
	if g.chance(0.3) {
		milestone = obj{{"number", 1 + g.r.IntN(9)}, {"title", "v2." + fmt.Sprint(g.r.IntN(5))}, {"state", "open"}, {"due_on", g.when()}}
	}
	created := g.when()
	o := obj{
		{"url", fmt.Sprintf("%s/issues/%d", apiBase, number)},
		{"repository_url", apiBase},
		{"html_url", fmt.Sprintf("%s/issues/%d", webBase, number)},
		{"id", 2_000_000_000 + g.r.IntN(100_000_000)},
		{"number", number},
		{"title", g.sentence()},
		{"user", g.user()},
		{"labels", g.labels()},
		{"state", state},
		{"locked", g.chance(0.05)},
		{"assignee", assignee},
		{"assignees", assignees},
		{"milestone", milestone},
		{"comments", g.r.IntN(40)},
		{"created_at", created},
		{"updated_at", g.when()},
	}
	if state == "closed" {
		o = append(o, field{"closed_at", g.when()}, field{"closed_by", g.user()})
	} else {
		o = append(o, field{"closed_at", nil})
	}
	o = append(o, field{"author_association", g.pick([]string{"OWNER", "MEMBER", "CONTRIBUTOR", "NONE"})})
	if g.chance(0.25) {
		o = append(o, field{"pull_request", obj{
			{"url", fmt.Sprintf("%s/pulls/%d", apiBase, number)},
			{"merged_at", nil},
		}})
	}
	o = append(o,
		field{"body", g.body()},
		field{"reactions", obj{{"total_count", g.r.IntN(12)}, {"+1", g.r.IntN(9)}, {"-1", g.r.IntN(3)}, {"heart", g.r.IntN(4)}}},
		field{"score", numbers[g.r.IntN(len(numbers))]},
	)
	return o
}

func (g *gen) pullRequest(i int) obj {
	number := 2000 - i
	merged := any(nil)
	state := "open"
	if g.chance(0.5) {
		state = "closed"
		if g.chance(0.7) {
			merged = g.when()
		}
	}
	branch := strings.ReplaceAll(strings.ToLower(g.sentence()), " ", "-")
	reviewers := []any{}
	for range g.r.IntN(3) {
		reviewers = append(reviewers, g.user())
	}
	return obj{
		{"url", fmt.Sprintf("%s/pulls/%d", apiBase, number)},
		{"id", 1_500_000_000 + g.r.IntN(100_000_000)},
		{"html_url", fmt.Sprintf("%s/pull/%d", webBase, number)},
		{"number", number},
		{"state", state},
		{"title", g.sentence()},
		{"user", g.user()},
		{"body", g.body()},
		{"labels", g.labels()},
		{"draft", g.chance(0.2)},
		{"head", obj{{"label", "acme:" + branch}, {"ref", branch}, {"sha", g.sha()}, {"repo", g.repository()}}},
		{"base", obj{{"label", "acme:main"}, {"ref", "main"}, {"sha", g.sha()}, {"repo", rocket}}},
		{"requested_reviewers", reviewers},
		{"created_at", g.when()},
		{"updated_at", g.when()},
		{"merged_at", merged},
		{"additions", g.r.IntN(2000)},
		{"deletions", g.r.IntN(800)},
		{"changed_files", 1 + g.r.IntN(40)},
	}
}

// sha is a random 40-digit hex commit id.
func (g *gen) sha() string {
	return fmt.Sprintf("%016x%016x%08x", g.r.Uint64(), g.r.Uint64(), g.r.Uint32())
}

// rocket is the repository the generated pull requests are made against.
var rocket = obj{
	{"id", 123456789},
	{"name", "rocket"},
	{"full_name", repo},
	{"private", false},
	{"html_url", webBase},
	{"default_branch", "main"},
}

// repository is the head repository of a pull request: usually the base
// repository, sometimes a fork.
func (g *gen) repository() obj {
	if g.chance(0.8) {
		return rocket
	}
	owner := g.pick(logins)
	return obj{
		{"id", 200_000_000 + g.r.IntN(100_000_000)},
		{"name", "rocket"},
		{"full_name", owner + "/rocket"},
		{"private", false},
		{"html_url", "https://github.com/" + owner + "/rocket"},
		{"default_branch", "main"},
	}
}

func (g *gen) pipeline(i int) obj {
	id := 900_000 + 7*i
	status := g.pick([]string{"success", "failed", "running", "canceled", "skipped"})
	user := g.pick(logins)
	o := obj{
		{"id", id},
		{"iid", 5000 - i},
		{"project_id", 4242},
		{"sha", g.sha()},
		{"ref", g.pick([]string{"main", "release/2.1", "feat/arm64", "fix/typo,docs"})},
		{"status", status},
		{"source", g.pick([]string{"push", "merge_request_event", "schedule", "web"})},
		{"created_at", g.when()},
		{"updated_at", g.when()},
		{"web_url", fmt.Sprintf("https://gitlab.example.com/acme/rocket/-/pipelines/%d", id)},
		{"duration", num(fmt.Sprintf("%d.%02d", g.r.IntN(3000), g.r.IntN(100)))},
		{"queued_duration", numbers[g.r.IntN(len(numbers))]},
	}
	if status == "success" || status == "failed" {
		o = append(o, field{"coverage", fmt.Sprintf("%d.%02d", 50+g.r.IntN(50), g.r.IntN(100))})
	}
	o = append(o,
		field{"user", obj{
			{"id", 1 + g.r.IntN(500)},
			{"username", user},
			{"name", g.pick([]string{"Ana Lima", "Bo Chen", "Zoë Ellis", "佐藤 健", "Renovate Bot"})},
			{"state", "active"},
			{"avatar_url", nil},
			{"web_url", "https://gitlab.example.com/" + user},
		}},
		field{"detailed_status", obj{
			{"icon", "status_" + status},
			{"text", status},
			{"label", status},
			{"group", status},
			{"tooltip", status + ", " + g.sentence()},
			{"has_details", true},
			{"details_path", fmt.Sprintf("/acme/rocket/-/pipelines/%d", id)},
		}},
	)
	return o
}
