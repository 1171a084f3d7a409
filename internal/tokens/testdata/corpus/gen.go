//go:build ignore

// Gen writes the generated part of the calibration corpus: logs/*,
// json/issues.json and i18n/gitlog.txt. The output is deterministic (fixed seed), so rerunning it
// reproduces the committed files byte for byte:
//
//	go run ./internal/tokens/testdata/corpus/gen.go -dir internal/tokens/testdata/corpus
//
// The shapes imitate what a coding agent reads: service logs, access logs,
// go test output with a panic, CI build output, JSON-lines logs, a REST
// API listing with free-text bodies and a git log in several languages with
// gitmoji.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

var r = rand.New(rand.NewPCG(20250314, 1))

func pick[T any](xs ...T) T { return xs[r.IntN(len(xs))] }

var (
	t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

	users    = []string{"alice", "bob", "chen.wei", "dmitri_k", "eva-m", "fatima", "gopherbot", "jürgen", "kenji", "lucía", "renovate[bot]"}
	paths    = []string{"/api/v1/repos", "/api/v1/repos/winnow/issues", "/api/v1/search", "/healthz", "/metrics", "/static/js/app.3f9a1c.js", "/login", "/api/v2/users/42/settings", "/favicon.ico", "/api/v1/repos/winnow/pulls/117/files"}
	agents   = []string{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", "curl/8.5.0", "Go-http-client/1.1", "python-requests/2.31.0", "Prometheus/2.51.0", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15"}
	messages = []string{"request served", "cache miss", "cache hit", "retrying upstream", "slow query", "connection reset by peer", "token refreshed", "index rebuilt", "watcher added directory", "shutting down"}
	sentence = []string{
		"The indexer crashes when a file is renamed while it is being parsed.",
		"Steps to reproduce: clone the repository, run `winnow index .` and rename `main.go` during the scan.",
		"Expected the watcher to pick up the new path; instead the process exits with status 2.",
		"This started after upgrading to v0.4.1 on macOS 14.4 (arm64).",
		"I bisected it to the change that moved symbol extraction into a worker pool.",
		"Happy to send a PR if someone can confirm the approach.",
		"Related to #88 and possibly #104.",
		"Die Suche liefert keine Ergebnisse für Dateien mit Umlauten im Namen.",
		"La compactación elimina el último mensaje del usuario cuando el presupuesto es pequeño.",
		"インデックスの再構築が終わらない場合があります。",
		"在大型仓库中，检索结果的排序不稳定。",
		"Тест падает только на Windows, на Linux всё в порядке.",
		"Thanks! 🎉 Confirmed fixed on main.",
		"Memory grows to 2.3 GiB on a 40k-file monorepo; heap profile attached.",
	}
	labels = []string{"bug", "enhancement", "good first issue", "needs-triage", "area/index", "area/retrieve", "platform/windows", "performance"}
)

func main() {
	dir := flag.String("dir", ".", "corpus directory")
	flag.Parse()
	files := map[string]string{
		"logs/app.log":       appLog(150),
		"logs/access.log":    accessLog(70),
		"logs/gotest.log":    goTestLog(),
		"logs/ci.log":        ciLog(),
		"logs/service.jsonl": jsonLog(50),
		"json/issues.json":   issues(14),
		"i18n/gitlog.txt":    gitLog(90),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(*dir, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func stamp(i int) time.Time {
	return t0.Add(time.Duration(i)*1733*time.Millisecond + time.Duration(r.IntN(900))*time.Millisecond)
}

func hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}

func appLog(n int) string {
	var b strings.Builder
	for i := range n {
		lvl := pick("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")
		msg := pick(messages...)
		fmt.Fprintf(&b, "time=%s level=%s msg=%q", stamp(i).Format(time.RFC3339Nano), lvl, msg)
		switch msg {
		case "request served", "cache miss", "cache hit":
			fmt.Fprintf(&b, " method=%s path=%s status=%d dur=%.1fms bytes=%d req_id=%s",
				pick("GET", "GET", "POST", "PUT", "DELETE"), pick(paths...), pick(200, 200, 200, 304, 404, 500), r.Float64()*250, r.IntN(90000), hex(16))
		case "slow query":
			fmt.Fprintf(&b, " sql=%q rows=%d dur=%s", pick("SELECT id, path, mtime FROM files WHERE repo_id = ? AND deleted = 0", "UPDATE symbols SET score = ? WHERE id IN (?)", "DELETE FROM chunks WHERE file_id = ?"), r.IntN(5000), time.Duration(r.IntN(4000))*time.Millisecond)
		case "retrying upstream", "connection reset by peer":
			fmt.Fprintf(&b, " upstream=%s attempt=%d err=%q", pick("10.0.3.17:8443", "api.internal:443", "[::1]:6379"), r.IntN(5)+1, pick("dial tcp 10.0.3.17:8443: i/o timeout", "read: connection reset by peer", "context deadline exceeded"))
		case "watcher added directory":
			fmt.Fprintf(&b, " dir=%s watches=%d", pick("/home/dev/src/winnow/internal/index", "/home/dev/src/winnow/node_modules/.cache", "/srv/repos/monorepo/services/billing/api"), r.IntN(8192))
		default:
			fmt.Fprintf(&b, " component=%s", pick("indexer", "gateway", "compactor", "store"))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func accessLog(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d.%d.%d.%d - - [%s] \"%s %s HTTP/1.1\" %d %d \"%s\" \"%s\"\n",
			r.IntN(223)+1, r.IntN(256), r.IntN(256), r.IntN(256),
			stamp(i).Format("02/Jan/2006:15:04:05 -0700"),
			pick("GET", "GET", "GET", "POST", "HEAD"), pick(paths...),
			pick(200, 200, 200, 301, 304, 404, 502), r.IntN(60000),
			pick("-", "https://winnow.dev/docs/", "https://github.com/winnowhq/winnow"), pick(agents...))
	}
	return b.String()
}

func goTestLog() string {
	var b strings.Builder
	tests := []string{"TestParseEncoding", "TestIndexRename", "TestRetrieveRanking/exact_name", "TestRetrieveRanking/prefix", "TestCompactKeepsPairs", "TestWatcherDebounce", "TestStoreMigrate/v3_to_v4", "TestGatewayTruncate"}
	for round := range 3 {
		for _, t := range tests {
			fmt.Fprintf(&b, "=== RUN   %s\n", t)
			if r.IntN(6) == 0 {
				fmt.Fprintf(&b, "    %s_test.go:%d: got %d results, want %d\n", strings.ToLower(strings.TrimPrefix(strings.Split(t, "/")[0], "Test")), r.IntN(400)+20, r.IntN(10), r.IntN(10)+10)
				fmt.Fprintf(&b, "    diff (-want +got):\n      []string{\n    - \t\"internal/index/watch.go\",\n    + \t\"internal/index/scan.go\",\n      }\n")
				fmt.Fprintf(&b, "--- FAIL: %s (%.2fs)\n", t, r.Float64())
				continue
			}
			fmt.Fprintf(&b, "--- PASS: %s (%.2fs)\n", t, r.Float64()/10)
		}
		fmt.Fprintf(&b, "FAIL\nFAIL\tgithub.com/winnowhq/winnow/internal/index\t%.3fs\n", 1+r.Float64()*4)
		fmt.Fprintf(&b, "ok  \tgithub.com/winnowhq/winnow/internal/tokens\t(cached)\nok  \tgithub.com/winnowhq/winnow/internal/retrieve\t%.3fs\n", r.Float64()*3)
		if round == 1 {
			b.WriteString(panicTrace())
		}
	}
	return b.String()
}

func panicTrace() string {
	var b strings.Builder
	b.WriteString("panic: runtime error: index out of range [7] with length 7\n\ngoroutine 23 [running]:\n")
	frames := []string{
		"github.com/winnowhq/winnow/internal/index.(*Scanner).symbols(0xc0001b2000, {0xc000420000, 0x1f40, 0x2000})",
		"github.com/winnowhq/winnow/internal/index.(*Scanner).scanFile(0xc0001b2000, {0x7ffd5e3c1a2e, 0x1c})",
		"github.com/winnowhq/winnow/internal/index.(*Indexer).worker(0xc00012e0a0, {0x1029c5f40, 0xc0000a4050}, 0xc000092120)",
		"created by github.com/winnowhq/winnow/internal/index.(*Indexer).Run in goroutine 1",
	}
	for i, f := range frames {
		fmt.Fprintf(&b, "%s\n\t/home/dev/src/winnow/internal/index/%s.go:%d +0x%s\n", f, pick("scan", "symbols", "index"), 40+i*37, hex(3))
	}
	for g := range 4 {
		fmt.Fprintf(&b, "\ngoroutine %d [%s, %d minutes]:\nruntime.gopark(0x%s?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\nsync.runtime_Semacquire(0xc0000%s?)\n\t/usr/local/go/src/runtime/sema.go:71 +0x25\nsync.(*WaitGroup).Wait(0xc0000%s)\n\t/usr/local/go/src/sync/waitgroup.go:118 +0x48\n",
			g+1, pick("chan receive", "select", "semacquire", "IO wait"), r.IntN(12), hex(6), hex(5), hex(5))
	}
	b.WriteString("exit status 2\n")
	return b.String()
}

func ciLog() string {
	var b strings.Builder
	steps := []string{"FROM golang:1.26-bookworm AS build", "WORKDIR /src", "COPY go.mod go.sum ./", "RUN go mod download", "COPY . .", "RUN CGO_ENABLED=1 go build -trimpath -o /out/winnow ./cmd/winnow", "FROM gcr.io/distroless/base-debian12", "COPY --from=build /out/winnow /usr/local/bin/winnow"}
	for i, s := range steps {
		fmt.Fprintf(&b, "#%d [%s %d/%d] %s\n", i+4, pick("build", "stage-1"), i+1, len(steps), s)
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "#%d DONE %.1fs\n", i+4, r.Float64()*40)
		} else {
			fmt.Fprintf(&b, "#%d CACHED\n", i+4)
		}
	}
	b.WriteString("\n> winnow-web@0.3.0 build\n> vite build\n\n")
	for range 6 {
		fmt.Fprintf(&b, "npm warn deprecated %s@%d.%d.%d: %s\n", pick("inflight", "glob", "rimraf", "@humanwhocodes/config-array"), r.IntN(9), r.IntN(20), r.IntN(10), pick("This module is not supported, and leaks memory. Do not use it.", "Glob versions prior to v9 are no longer supported", "Use @eslint/config-array instead"))
	}
	for range 8 {
		fmt.Fprintf(&b, "dist/assets/%s-%s.js  %6.2f kB │ gzip: %5.2f kB\n", pick("index", "vendor", "editor", "markdown"), hex(8), r.Float64()*500, r.Float64()*120)
	}
	b.WriteString("✓ built in 4.21s\n\n")
	b.WriteString("Traceback (most recent call last):\n  File \"/home/runner/work/winnow/scripts/eval.py\", line 214, in <module>\n    main()\n  File \"/home/runner/work/winnow/scripts/eval.py\", line 198, in main\n    scores = evaluate(cases, k=args.k)\n             ^^^^^^^^^^^^^^^^^^^^^^^^^\n  File \"/home/runner/work/winnow/scripts/eval.py\", line 121, in evaluate\n    rank = hits.index(case[\"want\"]) + 1\n           ^^^^^^^^^^^^^^^^^^^^^^^^\nValueError: 'internal/index/watch.go' is not in list\n\n")
	for range 10 {
		fmt.Fprintf(&b, "internal/%s/%s.go:%d:%d: %s\n", pick("index", "retrieve", "compact", "gateway"), pick("scan", "rank", "pass", "stage", "watch"), r.IntN(600)+1, r.IntN(60)+1,
			pick("undefined: tokens.Estimate", "cannot use b (variable of type tokens.Budget) as int value in argument to pack", "declared and not used: err", "missing return", "too many arguments in call to e.candidates\n\thave (context.Context, Query)\n\twant (context.Context, Query, intent.Intent)"))
	}
	b.WriteString("Error: Process completed with exit code 1.\n")
	return b.String()
}

func jsonLog(n int) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for i := range n {
		enc.Encode(map[string]any{
			"ts":      stamp(i).Format(time.RFC3339Nano),
			"level":   pick("info", "info", "debug", "warn", "error"),
			"logger":  pick("gateway.stage", "index.watch", "retrieve.rank", "store.sqlite"),
			"msg":     pick(messages...),
			"caller":  fmt.Sprintf("%s.go:%d", pick("stage/truncate", "watch/watch", "rank/rank", "sqlite/tx"), r.IntN(400)),
			"tokens":  r.IntN(20000),
			"saved":   r.IntN(8000),
			"session": hex(12),
		})
	}
	return b.String()
}

type user struct {
	Login     string `json:"login"`
	ID        int    `json:"id"`
	AvatarURL string `json:"avatar_url"`
	HTMLURL   string `json:"html_url"`
	Type      string `json:"type"`
}

type label struct {
	Name  string `json:"name"`
	Color string `json:"color"`
}

type issue struct {
	ID        int64          `json:"id"`
	Number    int            `json:"number"`
	Title     string         `json:"title"`
	User      user           `json:"user"`
	Labels    []label        `json:"labels"`
	State     string         `json:"state"`
	Comments  int            `json:"comments"`
	CreatedAt string         `json:"created_at"`
	UpdatedAt string         `json:"updated_at"`
	ClosedAt  *string        `json:"closed_at"`
	Body      string         `json:"body"`
	Reactions map[string]int `json:"reactions"`
}

func issues(n int) string {
	var list []issue
	for i := range n {
		login := pick(users...)
		u := user{Login: login, ID: 1000 + r.IntN(9_000_000), Type: "User"}
		u.AvatarURL = fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", u.ID)
		u.HTMLURL = "https://github.com/" + login
		var ls []label
		for range r.IntN(3) + 1 {
			ls = append(ls, label{Name: pick(labels...), Color: hex(6)})
		}
		var body []string
		for range r.IntN(5) + 1 {
			body = append(body, pick(sentence...))
		}
		it := issue{
			ID: 2_100_000_000 + int64(r.IntN(99_999_999)), Number: 60 + i, Title: pick(sentence...), User: u, Labels: ls,
			State: pick("open", "open", "closed"), Comments: r.IntN(30),
			CreatedAt: stamp(i * 5000).Format(time.RFC3339), UpdatedAt: stamp(i*5000 + 900).Format(time.RFC3339),
			Body:      strings.Join(body, "\n\n"),
			Reactions: map[string]int{"+1": r.IntN(9), "-1": r.IntN(2), "heart": r.IntN(4), "rocket": r.IntN(3), "total_count": r.IntN(20)},
		}
		if it.State == "closed" {
			s := stamp(i*5000 + 2000).Format(time.RFC3339)
			it.ClosedAt = &s
		}
		list = append(list, it)
	}
	out, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	return string(out) + "\n"
}

func gitLog(n int) string {
	authors := []string{"Jürgen Müller", "Lucía Fernández", "Chen Wei", "Дмитрий Козлов", "山田 健二", "Fatima Zahra", "alice", "renovate[bot]"}
	emoji := []string{"✨", "🐛", "♻️", "⚡️", "📝", "✅", "🔥", "🚀", "⬆️", "🎨", "🔒", "💥"}
	kinds := []string{"feat", "fix", "refactor", "perf", "docs", "test", "chore"}
	scopes := []string{"index", "retrieve", "compact", "gateway", "tokens", "cli", "deps"}
	subjects := []string{
		"watch new directories on CREATE",
		"keep tool-call/tool-result pairs together when compacting",
		"count tokens exactly at budget boundaries",
		"bump github.com/tiktoken-go/tokenizer to v0.10.0",
		"Umlaute in Dateinamen korrekt indizieren",
		"corrige el orden de los resultados empatados",
		"修复大型仓库中索引重建卡住的问题",
		"インデックス再構築の進捗表示を追加",
		"исправить утечку памяти в наблюдателе файлов",
		"explain ranking features with --explain",
		"drop the 🐢 slow path for small files",
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s %s %s %s(%s): %s\n", hex(7), stamp(-i*40000).Format("2006-01-02"), pick(emoji...), pick(kinds...), pick(scopes...), pick(subjects...))
		fmt.Fprintf(&b, "        %s\n", pick(authors...))
	}
	return b.String()
}
