// Package agentcalls reads the tool calls of recorded agent runs into one canonical
// vocabulary, so that the tool-value planner (package planner) and its replay benchmark
// (package bench/enrich) can treat every agent alike. The canonical tools are Claude
// Code's built-ins: Read{file_path, offset, limit}, Grep{pattern, path, glob},
// Glob{pattern, path}, LS{path}, Edit{file_path}, Write{file_path} and Bash{command}.
// A call that maps to none of them (submit, finish, think) keeps the agent's own name
// and arguments, so that every call of a run is accounted for.
//
// It reads what package compact/traj loads (OpenHands, SWE-agent text and
// function-calling, SWE-smith and nebius records); readers of Claude Code transcripts
// and Codex rollouts live beside it and produce the same Session. It does not plan, run
// or price calls.
//
// # Mapping
//
//	agent call                                  canonical call
//	str_replace_editor view FILE [view_range]   Read{file_path, offset, limit}
//	str_replace_editor view DIR                 LS{path}   (the result lists a directory)
//	str_replace_editor create FILE              Write{file_path}
//	str_replace_editor str_replace|insert|undo_edit FILE   Edit{file_path}
//	execute_bash, bash: a shell command         see below
//	open PATH                                   Read{file_path}: the file from its top
//	                                              (SWE-agent shows 100 lines of it)
//	open PATH LINE, goto LINE,                  Read of the window the result shows:
//	scroll_down, scroll_up                        offset = its first line, limit = its
//	                                              length; a window showing the whole
//	                                              file is Read{file_path}
//	create FILE                                 Write{file_path}
//	edit, insert                                Edit{file_path: the open file}
//	find_file NAME [DIR]                        Glob{pattern: NAME, path: DIR}
//	search_dir TERM [DIR]                       Grep{pattern: TERM, path: DIR}
//	search_file TERM [FILE]                     Grep{pattern: TERM, path: FILE or the open file}
//	Read, Grep, Glob, LS, Edit, Write, Bash     as they are (Claude Code)
//	anything else (submit, finish, think)       the agent's own name and arguments
//
// A shell command is read as the shell would split it (quotes, ";", "&&", "||", pipes);
// leading "cd DIR" commands set the directory that relative paths resolve against, and
// stderr thrown away (2>/dev/null, 2>&1) is allowed. Then:
//
//	cat [-n] FILE                               Read{file_path}
//	sed -n 'A,Bp' FILE                          Read{file_path, offset: A, limit: B-A+1}
//	head [-n N] FILE                            Read{file_path, limit: N}
//	grep|egrep|rg [opts] PATTERN [PATH]         Grep{pattern, path, glob: --include}; not -c, -q
//	find [DIR] [-type T] [-name G]              Glob{pattern: G (else "**"), path: DIR}
//	find DIR -name G | xargs grep PATTERN       Grep{pattern, path: DIR, glob: G}
//	ls|tree [opts] [DIR]                        LS{path}
//
// each optionally followed by filters that only narrow or order its lines (grep
// without -c, sort, uniq, head, tail). Any other command, several commands, or
// substitutions and redirections are Bash{command} with the command as written.
//
// Paths are absolute when the run tells where it is: SWE-agent's "(Current directory:
// ...)" and "(Open file: ...)" status lines, a "cd", or the <uploaded_files> directory an
// OpenHands or SWE-smith task names; they are cleaned (path.Clean).
//
// # Calls and results
//
// Tool-form runs (OpenAI tool_calls, Anthropic tool_use) pair calls and results by id; a
// result answers the earliest unanswered call with its id, since SWE-agent
// demonstrations reuse ids. Text-form runs write their calls in the assistant's text:
// SWE-smith's <function=NAME><parameter=K>V</parameter></function>, or a SWE-agent
// command in the last fenced block (its thought-action format, used by the nebius
// records and SWE-agent .traj files in text form); the result is the next user message.
// An assistant message without a call (a format error, a final answer) makes none.
//
// # Transcripts
//
// ReadClaudeCode reads a Claude Code transcript (~/.claude/projects/<project>/<id>.jsonl)
// and ReadCodex a Codex rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl); Sniff
// tells them apart by their first lines. Both pair calls and results by id, skip lines
// that are not JSON (counted), and were written against the files the real Claude Code
// 2.1.328 and Codex 0.169.0 wrote (testdata, recorded by TestClaudeCodeLive and
// TestCodexLive).
package agentcalls
