package toolvalue

import (
	"slices"
	"time"
)

// OriginBuiltin is the Origin of the rules [Builtin] returns.
const OriginBuiltin = "builtin"

// Builtin returns winnow's default models: Claude Code's and Codex's built-in tools,
// winnow's own MCP tools, and the tools of @modelcontextprotocol/server-filesystem and of
// the GitHub and GitLab MCP servers (as "*__<tool>", so that any gateway prefix, and
// Claude Code's "mcp__<server>__<tool>", matches).
//
// Where the numbers come from. Claude Code's sizes and follow-up probabilities are
// measured on devboy's corpus of 3,185 Claude Code sessions (paper3_tool_volume.csv and
// paper3_followup_edges.csv; see DESIGN below). Tools the corpus does not have borrow the
// numbers of the nearest tool that it has, and say so; latencies, and the numbers of the
// servers' tools that no corpus measures, are guesses, and say so too. `winnow tune`
// refreshes them from telemetry.
//
// DESIGN: sizes. The corpus gives response sizes in characters; a model's sizes are tokens,
// taken as characters/4 (rounded), the typical size from the median and the maximum from
// the 99th percentile.
//
// DESIGN: follow-up probabilities. P(next | prev) is the corpus's lag-1 count of prev→next
// over the number of calls of prev (paper3_tool_volume.csv's calls column). This reproduces
// every lag-1 figure of the design (Grep→Read 0.35, Glob→Read 0.32, Edit→Read 0.14,
// WebSearch→WebFetch 0.19 where devboy shipped the WebSearch→WebSearch self-loop's 0.65).
// Dividing by the lag-1 rows' own sum instead counts only the calls whose successor
// survived the corpus's k-anonymisation (edges seen in fewer than 5 sessions were dropped)
// and were not a session's last call, and overstates every edge (WebSearch→WebFetch 0.20).
// Self-loops (Read→Read 0.44, Grep→Grep 0.39) stay in the denominator, so a probability is
// the chance that the very next call is that tool, but they are not edges here: no
// projection of a call predicts the next call of the same tool (another file, another
// pattern), and a planner skips them anyway. Nor are edges whose arguments cannot be
// projected (Edit→Bash 0.27, Read→Edit 0.21): they could not form a call.
func Builtin() Layer {
	var l Layer
	for _, table := range [][]builtin{claudeCode, codex, winnowTools, serverFilesystem, githubServer, gitlabServer} {
		for _, b := range table {
			l = append(l, b.rule())
		}
	}
	return l
}

// A builtin is one tool's default model, written compactly.
type builtin struct {
	pattern string
	class   Class
	effect  SideEffect
	// chars are the typical and largest result sizes in characters (median and p99 where
	// measured); rule turns them into tokens.
	chars       [2]int
	latency     time.Duration
	ttl         time.Duration
	dollars     float64
	follow      []FollowUp
	invalidates []string
	failFast    int
	groups      []FieldGroup
}

func (b builtin) rule() Rule {
	s := Spec{
		Class:         &b.class,
		SideEffect:    &b.effect,
		TypicalTokens: ptrTo(charsToTokens(b.chars[0])),
		MaxTokens:     ptrTo(charsToTokens(max(b.chars[0], b.chars[1]))),
		LatencyP50:    &b.latency,
		FollowUps:     slices.Clone(b.follow),
		Invalidates:   slices.Clone(b.invalidates),
		FieldGroups:   slices.Clone(b.groups),
	}
	if b.ttl > 0 {
		s.FreshnessTTL = &b.ttl
	}
	if b.dollars > 0 {
		s.Dollars = &b.dollars
	}
	if b.failFast > 0 {
		s.FailFastAfter = &b.failFast
	}
	return Rule{Pattern: b.pattern, Origin: OriginBuiltin, Spec: s}
}

// charsToTokens is the size in tokens of a text of n characters, about 4 characters a
// token for English and code.
func charsToTokens(n int) int { return (n + 2) / 4 }

func ptrTo[T any](v T) *T { return &v }

// readAfter is the edge from a call that names or lists files to Claude Code's Read of
// them.
func readAfter(p float64, path string) []FollowUp {
	return []FollowUp{{Tool: "Read", Probability: p, Args: map[string]string{"file_path": path}}}
}

// readHits is the edge from a search to Claude Code's Read of its hits: a window around
// each hit that has a line (the lines of a search of one file are in the file searched),
// each file named without one whole.
func readHits(p float64) []FollowUp {
	return []FollowUp{{Tool: "Read", Probability: p, Args: map[string]string{
		"file_path": "arg.path/result.hits.path", "offset": "result.hits.offset", "limit": "result.hits.limit"}}}
}

// Claude Code's built-in tools (@anthropic-ai/claude-code 2.1.328; argument names from its
// sdk-tools.d.ts). Sizes: paper3_tool_volume.csv, "calls, median, p99" in the comments;
// follow-ups: paper3_followup_edges.csv, lag 1, "count/calls".
var claudeCode = []builtin{
	// Read 50,675 calls, 2,473 / 42,870 chars. Valid until an edit or a shell invalidates it.
	{pattern: "Read", class: Critical, effect: ReadOnly, chars: [2]int{2473, 42870}, latency: 20 * time.Millisecond},
	// Grep 16,718 calls, 246 / 10,521 chars; Grep→Read 5,915/16,718 = 0.35 (Grep→Grep 0.39
	// is a self-loop). Its hits are absolute paths, path:line:text in content mode, or
	// line:text when it searched one file: a hit with a line is read as a window around
	// it, which agents ask for (OpenHands' view_range, SWE-agent's goto), a file named
	// alone as the whole file.
	{pattern: "Grep", class: Critical, effect: ReadOnly, chars: [2]int{246, 10521}, latency: 150 * time.Millisecond,
		follow: readHits(0.35)},
	// Glob 6,202 calls, 156 / 16,604 chars; Glob→Read 2,007/6,202 = 0.32.
	{pattern: "Glob", class: Supporting, effect: ReadOnly, chars: [2]int{156, 16604}, latency: 100 * time.Millisecond,
		follow: readAfter(0.32, "result.paths")},
	// LS is not in the corpus: Glob's sizes. Its result is an indented tree of names, which
	// no projection turns into paths, so it has no edge.
	{pattern: "LS", class: Supporting, effect: ReadOnly, chars: [2]int{156, 16604}, latency: 50 * time.Millisecond},
	// Edit 30,781 calls, 162 / 3,518 chars; Edit→Read 4,388/30,781 = 0.14 (the file just
	// edited). An edit makes the file's reads and the searches over it stale.
	{pattern: "Edit", class: Supporting, effect: MutatesLocal, chars: [2]int{162, 3518}, latency: 30 * time.Millisecond,
		follow: readAfter(0.14, "arg.file_path"), invalidates: []string{"Read", "Grep"}},
	// MultiEdit and NotebookEdit are not in the corpus: Edit's numbers.
	{pattern: "MultiEdit", class: Supporting, effect: MutatesLocal, chars: [2]int{162, 3518}, latency: 30 * time.Millisecond,
		follow: readAfter(0.14, "arg.file_path"), invalidates: []string{"Read", "Grep"}},
	{pattern: "NotebookEdit", class: Supporting, effect: MutatesLocal, chars: [2]int{162, 3518}, latency: 30 * time.Millisecond,
		follow: readAfter(0.14, "arg.notebook_path"), invalidates: []string{"Read", "Grep"}},
	// Write 6,654 calls, 137 / 8,510 chars; Write→Read 753/6,654 = 0.11. A new file also
	// changes listings.
	{pattern: "Write", class: Optional, effect: MutatesLocal, chars: [2]int{137, 8510}, latency: 30 * time.Millisecond,
		follow: readAfter(0.11, "arg.file_path"), invalidates: []string{"Read", "Grep", "Glob", "LS"}},
	// Bash 110,930 calls, 223 / 9,129 chars; Bash→Read 12,094/110,930 = 0.11 (the files a
	// find, grep or failing test prints). A shell may do anything, so it is never run ahead
	// and makes every file read stale. Latency: a guess.
	{pattern: "Bash", class: Critical, effect: Indeterminate, chars: [2]int{223, 9129}, latency: 2 * time.Second,
		follow: readAfter(0.11, "result.paths"), invalidates: []string{"Read", "Grep", "Glob", "LS"}},
	// TaskOutput 266 calls, 173 / 32,157 chars: the output of a background shell or agent
	// so far. BashOutput, its earlier name, is not in the corpus: the same numbers. A poll:
	// after 3 unchanged answers it is answered from the session (the design's pipeline
	// polling pattern; 3 is devboy's). Freshness: a guess.
	{pattern: "TaskOutput", class: Critical, effect: ReadOnly, chars: [2]int{173, 32157}, latency: 20 * time.Millisecond,
		ttl: 5 * time.Second, failFast: 3},
	{pattern: "BashOutput", class: Critical, effect: ReadOnly, chars: [2]int{173, 32157}, latency: 20 * time.Millisecond,
		ttl: 5 * time.Second, failFast: 3},
	// WebFetch 1,825 calls, 1,145 / 23,977 chars. Claude Code keeps fetched pages 15
	// minutes (its description: "a self-cleaning cache"; CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS
	// defaults to 900000). Latency: a guess.
	{pattern: "WebFetch", class: Critical, effect: ReadOnly, chars: [2]int{1145, 23977}, latency: 3 * time.Second,
		ttl: 15 * time.Minute},
	// WebSearch 1,674 calls, 3,100 / 7,209 chars; WebSearch→WebFetch 323/1,674 = 0.19 (of
	// the links it lists; WebFetch's prompt cannot be predicted). $0.01 a search (Anthropic's
	// web search tool, $10 per 1,000 searches). Freshness and latency: guesses.
	{pattern: "WebSearch", class: Supporting, effect: ReadOnly, chars: [2]int{3100, 7209}, latency: 3 * time.Second,
		ttl: 15 * time.Minute, dollars: 0.01,
		follow: []FollowUp{{Tool: "WebFetch", Probability: 0.19, Args: map[string]string{"url": "result.urls"}}}},
	// Agent 1,376 calls, 6,604 / 23,673 chars; Task, its earlier name, 690 calls, 9,017 /
	// 29,989. A subagent may do anything its tools allow, edits included. Latency: a guess.
	{pattern: "Agent", class: Critical, effect: Indeterminate, chars: [2]int{6604, 23673}, latency: 60 * time.Second,
		invalidates: []string{"Read", "Grep", "Glob", "LS"}},
	{pattern: "Task", class: Critical, effect: Indeterminate, chars: [2]int{9017, 29989}, latency: 60 * time.Second,
		invalidates: []string{"Read", "Grep", "Glob", "LS"}},
	// The todo and task lists record what the agent plans (TodoWrite 3,201 calls, 160 / 160
	// chars; TaskCreate 2,812, 78 / 113; TaskUpdate 5,386, 23 / 36; TaskList 52, 390 / 5,796):
	// audit-only, never worth a budget. TaskStop (35 calls, 493 / 2,066) stops a task.
	{pattern: "TodoWrite", class: AuditOnly, effect: MutatesLocal, chars: [2]int{160, 160}, latency: 5 * time.Millisecond},
	{pattern: "TaskCreate", class: AuditOnly, effect: MutatesLocal, chars: [2]int{78, 113}, latency: 5 * time.Millisecond},
	{pattern: "TaskUpdate", class: AuditOnly, effect: MutatesLocal, chars: [2]int{23, 36}, latency: 5 * time.Millisecond},
	{pattern: "TaskList", class: AuditOnly, effect: ReadOnly, chars: [2]int{390, 5796}, latency: 5 * time.Millisecond},
	{pattern: "TaskStop", class: Optional, effect: MutatesLocal, chars: [2]int{493, 2066}, latency: 50 * time.Millisecond},
	// ToolSearch 2,342 calls, 0 / 32 chars: its median and 90th percentile answer is empty,
	// so over half its calls found nothing; after 2 empty answers in a row the same search
	// is answered from the session.
	{pattern: "ToolSearch", class: Supporting, effect: ReadOnly, chars: [2]int{0, 32}, latency: 20 * time.Millisecond,
		failFast: 2},
	// ExitPlanMode (481 calls, 502 / 43,582 chars) asks the user to approve a plan and
	// changes the session's mode; AskUserQuestion (459, 246 / 1,673) waits for a person.
	// Neither may run ahead of the agent.
	{pattern: "ExitPlanMode", class: Optional, effect: MutatesLocal, chars: [2]int{502, 43582}, latency: 30 * time.Second},
	{pattern: "AskUserQuestion", class: Critical, effect: MutatesExternal, chars: [2]int{246, 1673}, latency: 60 * time.Second},
}

// Codex's built-in tools (@openai/codex 0.169.0: the handlers and tool names in its binary,
// core/src/tools/handlers/{unified_exec/exec_command,unified_exec/write_stdin,apply_patch,
// plan,view_image}.rs, "shell_command" as the shell_type of its model presets, "shell" of
// earlier versions and other presets). It has no read_file, list_dir or grep_files tool:
// it reads and searches through its shell. No corpus measures Codex: every number is the
// nearest Claude Code tool's (shells: Bash; apply_patch: Edit; update_plan: TodoWrite), and
// the image size a guess. A shell may do anything, so none is run ahead; there is no read
// tool whose cached result a patch would make stale.
var codex = []builtin{
	{pattern: "shell", class: Critical, effect: Indeterminate, chars: [2]int{223, 9129}, latency: 2 * time.Second},
	{pattern: "shell_command", class: Critical, effect: Indeterminate, chars: [2]int{223, 9129}, latency: 2 * time.Second},
	{pattern: "exec_command", class: Critical, effect: Indeterminate, chars: [2]int{223, 9129}, latency: 2 * time.Second},
	{pattern: "write_stdin", class: Critical, effect: Indeterminate, chars: [2]int{223, 9129}, latency: time.Second},
	{pattern: "apply_patch", class: Supporting, effect: MutatesLocal, chars: [2]int{162, 3518}, latency: 30 * time.Millisecond},
	{pattern: "update_plan", class: AuditOnly, effect: MutatesLocal, chars: [2]int{160, 160}, latency: 5 * time.Millisecond},
	// view_image adds the image to the conversation: about 800 tokens of image for a
	// screenshot (a guess), read-only.
	{pattern: "view_image", class: Critical, effect: ReadOnly, chars: [2]int{3200, 6400}, latency: 50 * time.Millisecond},
}
