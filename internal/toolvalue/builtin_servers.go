package toolvalue

import "time"

// The MCP servers' tools are keyed "*__<tool>": the gateway shows an upstream's tools as
// "<prefix>__<tool>" and Claude Code as "mcp__<server>__<tool>", and a follow-up to
// "*__<tool>" is a call of the same upstream (see [FollowUp]). A tool no rule here names
// still gets its side effect from its own annotations.

// winnow's own MCP tools (internal/mcpserver: context, find_symbol, outline, references,
// telescope, drilldown) and the gateway's winnow__more. They read the repository's index,
// which each call brings up to date: read-only, valid until a file changes. Sizes are
// guesses within their caps: context fills most of its budget (default 8000 tokens, the
// server's default --max-output-tokens, mcpserver.DefaultMaxOutputTokens, caps them all);
// winnow__more returns one page of up to gateway.call_budget (default 4000). The edges
// (look up a symbol, then who uses it; see who uses a name, then its definition) are
// guesses.
var winnowTools = []builtin{
	{pattern: "context", class: Critical, effect: ReadOnly, chars: [2]int{4 * 6000, 4 * 8000}, latency: 300 * time.Millisecond},
	{pattern: "find_symbol", class: Critical, effect: ReadOnly, chars: [2]int{4 * 400, 4 * 8000}, latency: 50 * time.Millisecond,
		follow: []FollowUp{{Tool: "references", Probability: 0.2, Args: map[string]string{"name": "arg.name"}}}},
	{pattern: "outline", class: Supporting, effect: ReadOnly, chars: [2]int{4 * 800, 4 * 8000}, latency: 50 * time.Millisecond},
	{pattern: "references", class: Supporting, effect: ReadOnly, chars: [2]int{4 * 500, 4 * 8000}, latency: 50 * time.Millisecond,
		follow: []FollowUp{{Tool: "find_symbol", Probability: 0.2, Args: map[string]string{"name": "arg.name", "body": "const:true"}}}},
	{pattern: "telescope", class: Supporting, effect: ReadOnly, chars: [2]int{4 * 1500, 4 * 8000}, latency: 500 * time.Millisecond},
	{pattern: "drilldown", class: Critical, effect: ReadOnly, chars: [2]int{4 * 1500, 4 * 8000}, latency: 100 * time.Millisecond},
	{pattern: "winnow__more", class: Critical, effect: ReadOnly, chars: [2]int{4 * 3000, 4 * 4000}, latency: time.Millisecond},
}

// fsReads are the tools of server-filesystem whose results a change of a file makes stale,
// with winnow's own tools, which read the same files.
var fsReads = []string{
	"*__read_text_file", "*__read_file", "*__read_media_file", "*__read_multiple_files",
	"*__list_directory", "*__list_directory_with_sizes", "*__directory_tree", "*__search_files",
	"*__get_file_info",
	"context", "find_symbol", "outline", "references", "telescope", "drilldown",
}

// fsReadAfter is the edge from a call of server-filesystem that names or lists files to
// its read_text_file of them (whose argument is path).
func fsReadAfter(p float64, path string) []FollowUp {
	return []FollowUp{{Tool: "*__read_text_file", Probability: p, Args: map[string]string{"path": path}}}
}

// @modelcontextprotocol/server-filesystem 2026.8.31 (dist/index.js): the names, arguments,
// annotations and result formats of its tools. Every result is text (structuredContent
// holds the same text as {content}). No corpus measures it: each tool takes the numbers of
// the Claude Code tool it does the work of (read_text_file: Read; search_files, a glob
// over paths that prints full paths one per line: Glob; list_directory: Glob; edit_file,
// whose result is a diff: Edit; write_file: Write), and the rest are guesses from the
// result's format. Latencies are guesses.
var serverFilesystem = []builtin{
	{pattern: "*__read_text_file", class: Critical, effect: ReadOnly, chars: [2]int{2473, 42870}, latency: 20 * time.Millisecond},
	// read_file is read_text_file's deprecated alias.
	{pattern: "*__read_file", class: Critical, effect: ReadOnly, chars: [2]int{2473, 42870}, latency: 20 * time.Millisecond},
	// read_multiple_files joins "path:\n<content>" of each file: three reads, a guess.
	{pattern: "*__read_multiple_files", class: Critical, effect: ReadOnly, chars: [2]int{3 * 2473, 3 * 42870}, latency: 40 * time.Millisecond},
	// read_media_file is base64 image, audio or blob content: a guess.
	{pattern: "*__read_media_file", class: Supporting, effect: ReadOnly, chars: [2]int{4 * 1500, 4 * 16000}, latency: 40 * time.Millisecond},
	// search_files prints full paths, one per line ("No matches found" when none), of files
	// and directories: a directory read fails and is dropped.
	{pattern: "*__search_files", class: Critical, effect: ReadOnly, chars: [2]int{156, 16604}, latency: 200 * time.Millisecond,
		follow: fsReadAfter(0.32, "result.paths")},
	// list_directory prints "[FILE] name" and "[DIR] name" lines, names relative to the
	// directory listed; list_directory_with_sizes adds each file's size and a total.
	{pattern: "*__list_directory", class: Supporting, effect: ReadOnly, chars: [2]int{156, 16604}, latency: 20 * time.Millisecond,
		follow: fsReadAfter(0.32, "arg.path/result.paths")},
	{pattern: "*__list_directory_with_sizes", class: Supporting, effect: ReadOnly, chars: [2]int{2 * 156, 2 * 16604}, latency: 30 * time.Millisecond,
		follow: fsReadAfter(0.32, "arg.path/result.paths")},
	// directory_tree is a JSON tree of names, 2-space indented (guesses).
	{pattern: "*__directory_tree", class: Supporting, effect: ReadOnly, chars: [2]int{8000, 100000}, latency: 200 * time.Millisecond},
	// get_file_info prints 7 "key: value" lines (size, created, modified, accessed,
	// isDirectory, isFile, permissions); list_allowed_directories one line per directory.
	{pattern: "*__get_file_info", class: Supporting, effect: ReadOnly, chars: [2]int{240, 300}, latency: 10 * time.Millisecond},
	{pattern: "*__list_allowed_directories", class: Supporting, effect: ReadOnly, chars: [2]int{60, 400}, latency: 5 * time.Millisecond},
	// write_file answers "Successfully wrote to <path>", edit_file a git-style diff.
	{pattern: "*__write_file", class: Optional, effect: MutatesLocal, chars: [2]int{137, 8510}, latency: 20 * time.Millisecond,
		follow: fsReadAfter(0.11, "arg.path"), invalidates: fsReads},
	{pattern: "*__edit_file", class: Supporting, effect: MutatesLocal, chars: [2]int{162, 3518}, latency: 20 * time.Millisecond,
		follow: fsReadAfter(0.14, "arg.path"), invalidates: fsReads},
	{pattern: "*__create_directory", class: Optional, effect: MutatesLocal, chars: [2]int{60, 200}, latency: 10 * time.Millisecond,
		invalidates: fsReads},
	{pattern: "*__move_file", class: Optional, effect: MutatesLocal, chars: [2]int{100, 300}, latency: 10 * time.Millisecond,
		invalidates: fsReads},
}

// issueFields are the field groups of GitHub's and GitLab's issue, pull request and merge
// request objects: the links (GitHub's url, html_url, *_url and node_id, a user's
// avatar_url and gravatar_id; GitLab's web_url, avatar_url and _links) are worth little to
// an agent and left out by default, the text is what it reads. The values are guesses.
var issueFields = []FieldGroup{
	{Name: "links", Fields: []string{"url", "*_url", "node_id", "gravatar_id", "_links"}, Value: 0.05},
	{Name: "reactions", Fields: []string{"reactions", "upvotes", "downvotes"}, Value: 0.1},
	{Name: "body", Fields: []string{"body", "description"}, Value: 0.9, Default: true},
}

// trackerRead is a read of an issue tracker; trackerWrite changes one.
func trackerRead(pattern string, chars [2]int, follow ...FollowUp) builtin {
	return builtin{pattern: pattern, class: Critical, effect: ReadOnly, chars: chars, latency: 500 * time.Millisecond,
		follow: follow, groups: issueFields}
}

func trackerWrite(pattern string, chars [2]int) builtin {
	return builtin{pattern: pattern, class: Supporting, effect: MutatesExternal, chars: chars, latency: 800 * time.Millisecond}
}

// The sizes of the issue trackers' tools are those of devboy's own issue-tracker tools in
// paper3_tool_volume.csv (hashed server names; the sample with the most calls):
// get_issue mcp__pf3c76d 92 calls, 3,484 / 16,553 chars; get_issues (a list) mcp__pd16dd1
// 344, 816 / 31,915; get_issue_comments mcp__pd16dd1 64, 219 / 7,090; get_merge_requests
// mcp__pd16dd1 146, 293 / 2,864; get_merge_request_discussions mcp__pd16dd1 356, 12,615 /
// 37,778; get_merge_request_diffs mcp__pf3c76d 66, 19,921 / 45,495; get_pipeline
// mcp__pf3c76d 261, 4,024 / 28,087; get_job_logs mcp__pf3c76d 235, 4,880 / 29,051;
// create_issue mcp__pf3c76d 190, 2,389 / 6,753; update_issue 186, 2,795 / 13,489;
// create_issue_comment 102, 690 / 2,856. Latencies are guesses.
var (
	issueSize       = [2]int{3484, 16553}
	issueListSize   = [2]int{816, 31915}
	commentsSize    = [2]int{219, 7090}
	mrListSize      = [2]int{293, 2864}
	discussionsSize = [2]int{12615, 37778}
	diffSize        = [2]int{19921, 45495}
	pipelineSize    = [2]int{4024, 28087}
	jobLogSize      = [2]int{4880, 29051}
	createSize      = [2]int{2389, 6753}
	updateSize      = [2]int{2795, 13489}
	commentSize     = [2]int{690, 2856}
	fileSize        = [2]int{2473, 42870} // a file: Claude Code's Read
	listingSize     = [2]int{156, 16604}  // a listing: Claude Code's Glob
)

// The list→detail edges. devboy found thin list items (under 300 characters) followed by a
// detail call in 43% of turns and rich ones in 2%; GitHub's and GitLab's list items carry
// the body, so a detail call per listed item is taken as 0.2, a guess, capped at 3 calls per
// edge by the planner. Measured on devboy's corpus (lag 1, count/calls of the list tool,
// same server): get_merge_requests → get_merge_request_discussions 78/243 = 0.32,
// get_pipeline → get_job_logs 42/276 = 0.15.
const listToDetail = 0.2

// github/github-mcp-server (README and pkg/github at 64a49f34): issue_read and
// pull_request_read with a method argument replaced get_issue, get_issue_comments and
// get_pull_request, which older versions still serve. search_issues answers the search
// API's {total_count, items: [issue]}, list_issues {issues: [issue], totalCount,
// pageInfo}, list_pull_requests an array of pull requests; a directory's get_file_contents
// an array of entries with their path. search_code's items name their repository as one
// "owner/name" string, which no projection splits into the owner and repo arguments, so it
// has no edge.
var githubServer = []builtin{
	trackerRead("*__issue_read", issueSize),
	trackerRead("*__get_issue", issueSize),
	trackerRead("*__get_issue_comments", commentsSize),
	trackerRead("*__search_issues", issueListSize, FollowUp{Tool: "*__issue_read", Probability: listToDetail, Args: map[string]string{
		"method": `const:"get"`, "owner": "arg.owner", "repo": "arg.repo", "issue_number": "result.items[].number"}}),
	trackerRead("*__list_issues", issueListSize,
		FollowUp{Tool: "*__issue_read", Probability: listToDetail, Args: map[string]string{
			"method": `const:"get"`, "owner": "arg.owner", "repo": "arg.repo", "issue_number": "result.issues[].number"}},
		// GitLab's list_issues (below) answers an array of issues with their project.
		FollowUp{Tool: "*__get_issue", Probability: listToDetail, Args: map[string]string{
			"project_id": "result[].project_id", "issue_iid": "result[].iid"}}),
	trackerRead("*__pull_request_read", diffSize),
	trackerRead("*__get_pull_request", issueSize),
	trackerRead("*__list_pull_requests", mrListSize, FollowUp{Tool: "*__pull_request_read", Probability: listToDetail,
		Args: map[string]string{"method": `const:"get"`, "owner": "arg.owner", "repo": "arg.repo", "pullNumber": "result[].number"}}),
	trackerRead("*__search_pull_requests", issueListSize, FollowUp{Tool: "*__pull_request_read", Probability: listToDetail,
		Args: map[string]string{"method": `const:"get"`, "owner": "arg.owner", "repo": "arg.repo", "pullNumber": "result.items[].number"}}),
	{pattern: "*__search_code", class: Critical, effect: ReadOnly, chars: issueListSize, latency: time.Second},
	// A directory's entries (a JSON array; a file is a resource), then one of them
	// (Glob→Read's 0.32). GitLab's get_file_contents (below) reads files only.
	{pattern: "*__get_file_contents", class: Critical, effect: ReadOnly, chars: fileSize, latency: 400 * time.Millisecond,
		follow: []FollowUp{{Tool: "*__get_file_contents", Probability: 0.32, Args: map[string]string{
			"owner": "arg.owner", "repo": "arg.repo", "path": "result[].path"}}}},
	{pattern: "*__get_repository_tree", class: Supporting, effect: ReadOnly, chars: listingSize, latency: 500 * time.Millisecond},
	{pattern: "*__list_commits", class: Supporting, effect: ReadOnly, chars: issueListSize, latency: 500 * time.Millisecond},
	{pattern: "*__get_commit", class: Critical, effect: ReadOnly, chars: diffSize, latency: 500 * time.Millisecond},
	{pattern: "*__get_job_logs", class: Critical, effect: ReadOnly, chars: jobLogSize, latency: time.Second},
	{pattern: "*__actions_get", class: Supporting, effect: ReadOnly, chars: pipelineSize, latency: 500 * time.Millisecond},
	{pattern: "*__actions_list", class: Supporting, effect: ReadOnly, chars: issueListSize, latency: 500 * time.Millisecond},
	{pattern: "*__get_me", class: Optional, effect: ReadOnly, chars: [2]int{600, 1200}, latency: 300 * time.Millisecond},
	trackerWrite("*__issue_write", updateSize),
	trackerWrite("*__create_issue", createSize),
	trackerWrite("*__update_issue", updateSize),
	trackerWrite("*__add_issue_comment", commentSize),
	trackerWrite("*__sub_issue_write", updateSize),
	trackerWrite("*__create_pull_request", createSize),
	trackerWrite("*__update_pull_request", updateSize),
	trackerWrite("*__merge_pull_request", commentSize),
	trackerWrite("*__pull_request_review_write", commentSize),
	trackerWrite("*__add_comment_to_pending_review", commentSize),
	trackerWrite("*__create_or_update_file", commentSize),
	trackerWrite("*__push_files", commentSize),
	trackerWrite("*__delete_file", commentSize),
	trackerWrite("*__create_branch", commentSize),
	trackerWrite("*__fork_repository", commentSize),
	trackerWrite("*__create_repository", commentSize),
	trackerWrite("*__actions_run_trigger", commentSize),
}

// zereight/gitlab-mcp (@zereight/mcp-gitlab, schemas.ts and index.ts at 32c5df7), the most
// used GitLab server; GitLab's own built-in server shares get_merge_request and
// list_merge_requests. Results are the GitLab REST API's JSON: arrays of issues, merge
// requests, pipelines and jobs, each with its id, iid and project_id. Arguments:
// project_id, issue_iid, merge_request_iid, pipeline_id, job_id. get_issue, list_issues,
// create_issue, update_issue, get_file_contents and the repository tools share their names
// with GitHub's (above), and their rules carry the edges of both: an edge whose arguments a
// result does not have is skipped. A pipeline is polled: after 3 unchanged answers it is
// answered from the session, and an answer is fresh for 30 s (guesses after the design's
// pipeline-polling pattern).
var gitlabServer = []builtin{
	trackerRead("*__list_issue_discussions", discussionsSize),
	trackerRead("*__my_issues", issueListSize, FollowUp{Tool: "*__get_issue", Probability: listToDetail,
		Args: map[string]string{"project_id": "result[].project_id", "issue_iid": "result[].iid"}}),
	trackerRead("*__list_merge_requests", mrListSize, FollowUp{Tool: "*__mr_discussions", Probability: 0.32,
		Args: map[string]string{"project_id": "result[].project_id", "merge_request_iid": "result[].iid"}}),
	trackerRead("*__get_merge_request", issueSize),
	trackerRead("*__mr_discussions", discussionsSize),
	trackerRead("*__get_merge_request_notes", discussionsSize),
	{pattern: "*__get_merge_request_diffs", class: Critical, effect: ReadOnly, chars: diffSize, latency: time.Second},
	{pattern: "*__list_merge_request_diffs", class: Critical, effect: ReadOnly, chars: diffSize, latency: time.Second},
	{pattern: "*__list_merge_request_changed_files", class: Supporting, effect: ReadOnly, chars: listingSize, latency: 500 * time.Millisecond},
	{pattern: "*__get_merge_request_file_diff", class: Critical, effect: ReadOnly, chars: diffSize, latency: 500 * time.Millisecond},
	{pattern: "*__list_pipelines", class: Supporting, effect: ReadOnly, chars: issueListSize, latency: 500 * time.Millisecond,
		follow: []FollowUp{{Tool: "*__get_pipeline", Probability: listToDetail,
			Args: map[string]string{"project_id": "arg.project_id", "pipeline_id": "result[].id"}}}},
	{pattern: "*__get_pipeline", class: Supporting, effect: ReadOnly, chars: pipelineSize, latency: 500 * time.Millisecond,
		ttl: 30 * time.Second, failFast: 3,
		follow: []FollowUp{{Tool: "*__list_pipeline_jobs", Probability: 0.15,
			Args: map[string]string{"project_id": "arg.project_id", "pipeline_id": "arg.pipeline_id"}}}},
	{pattern: "*__list_pipeline_jobs", class: Supporting, effect: ReadOnly, chars: issueListSize, latency: 500 * time.Millisecond,
		ttl: 30 * time.Second,
		follow: []FollowUp{{Tool: "*__get_pipeline_job_output", Probability: 0.15,
			Args: map[string]string{"project_id": "arg.project_id", "job_id": "result[].id"}}}},
	{pattern: "*__get_pipeline_job", class: Supporting, effect: ReadOnly, chars: pipelineSize, latency: 500 * time.Millisecond,
		ttl: 30 * time.Second, failFast: 3},
	{pattern: "*__get_pipeline_job_output", class: Critical, effect: ReadOnly, chars: jobLogSize, latency: time.Second},
	{pattern: "*__search_repositories", class: Supporting, effect: ReadOnly, chars: issueListSize, latency: time.Second},
	{pattern: "*__get_branch_diffs", class: Critical, effect: ReadOnly, chars: diffSize, latency: time.Second},
	trackerWrite("*__create_note", commentSize),
	trackerWrite("*__create_issue_note", commentSize),
	trackerWrite("*__create_merge_request", createSize),
	trackerWrite("*__update_merge_request", updateSize),
	trackerWrite("*__merge_merge_request", commentSize),
	trackerWrite("*__create_merge_request_note", commentSize),
	trackerWrite("*__create_merge_request_thread", commentSize),
	trackerWrite("*__delete_issue", commentSize),
	trackerWrite("*__create_pipeline", pipelineSize),
	trackerWrite("*__retry_pipeline", pipelineSize),
	trackerWrite("*__cancel_pipeline", pipelineSize),
}
