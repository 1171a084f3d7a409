// Package claude is a scripted Claude behind a fake Anthropic Messages API, for measuring
// winnow's proxy with the real Claude Code client: it drives a `claude -p` session through
// a fixed number of tool steps, checks every request it receives against the API's rules
// as an oracle independent of winnow's own code, applies the server-side
// context-management edits the request asks for, and reports what the API would bill.
//
// It does not generate language, call any model or network service, implement the
// Messages API beyond what a coding agent's main loop and its side requests use (no
// images, documents, batches, files, server tools or compaction edits), or know Claude's
// tokenizer, which is not public.
//
// # The script
//
// Each main-loop request (a POST /v1/messages whose tools include Read or Bash) is
// answered, streamed when the request says "stream": true, with one assistant message: a
// thinking block of a few sentences (when the request enables thinking; its text is left
// out, "display": "omitted", when asked, the signature carrying it) and one tool call
// built from the client's own tool definitions: even steps Read a workspace file, odd
// steps run grep or sed on it through Bash; required fields the script does not know are
// filled from the tool's input_schema. After Script.Steps steps the answer is text only,
// with stop_reason end_turn. The step is recovered from the request itself (the highest
// step whose tool_use id, issued by the fake, is answered by a tool_result in it), so a
// client that retries or adds messages of its own stays on script. WriteWorkspace writes
// the files the script reads: 20–40 KB of numbered pseudo-code each, deterministic, so two
// runs of one script send the same bytes unless something between client and API changes
// them.
//
// With Script.Calls the model makes those calls instead, one per response, by the names
// the request's tools give them (Claude Code names an MCP tool mcp__<server>__<tool>), then
// answers; a request offering one of them is the main loop even without Read or Bash. The
// tool_result the client sent back for each call is kept for API.ToolResults, and
// Session.MCPConfig, AllowedTools and Env give Claude Code the MCP servers to call.
//
// Every other POST /v1/messages (a title, a summary, a small model) is a side request,
// answered "OK."; POST /v1/messages/count_tokens gets the o200k count after edits; HEAD
// and /api/* probes get 200 {}. All are checked and billed like the main loop but tallied
// apart, in Report.Side.
//
// # The oracle
//
// A request that breaks a rule is answered 400 invalid_request_error with the API's
// wording where it is documented, and recorded as a Violation (Report.Violations). The
// rules, by Violation.Rule:
//
//   - shape: at least one message; the first is a user message; roles are user, assistant
//     or system (Claude Code sends role "system" messages mid-conversation, which the API
//     accepts); thinking blocks only in assistant messages.
//   - empty: no message without content, no text block without non-whitespace text.
//   - tool-pairing: every tool_use of an assistant message is answered by a tool_result in
//     the next user message (system messages in between are not turns), results first in
//     that message; no tool_result without its tool_use in the assistant message before;
//     tool_use ids unique.
//   - beta-header: context_management needs anthropic-beta context-management-2025-06-27.
//   - signature: every thinking block sent back carries a signature the fake issued, with
//     the thinking text byte for byte as the client received it (empty when omitted); a
//     redacted_thinking block's data must be one the fake issued (it issues none). The
//     API strips, unverified, the earlier turns' thinking of last-turn-only models; the
//     oracle checks those too, so it is stricter there.
//   - tool-loop: while a tool loop is open (the last message, system messages aside, holds
//     only tool results) the latest assistant message carries every thinking block of the
//     response that made its tool calls, unmodified and in order ("Required: within a
//     tool-use turn, pass thinking blocks back").
//   - prefix and thinking-order, for preserved-thinking models only: the fake remembers,
//     for each signature it issues, a SHA-256 of the prefix the block was produced against
//     (the top-level system prompt, the tools, and the messages before it, each
//     re-serialised as canonical JSON: keys sorted, cache_control removed, a string
//     content as its text block; thinking blocks are not part of a prefix) and the
//     thinking block that came before it. A returned block whose prefix differs fails, and
//     so does one whose predecessor among the blocks kept is not the one it was produced
//     after: thinking may be dropped from the start of the history, from its end, or all
//     of it, but not from the middle, and a dropped block may not come back. The first
//     such failure invalidates every later block, so one violation is reported.
//   - context-management: the edits are well formed and clear_thinking_20251015 comes
//     first; an edit type the fake does not implement is reported here too, so that a
//     measurement never silently ignores one.
//
// Model families (family.go) are the fake's own table, written from Anthropic's
// documentation and independent of winnow's compaction code: last-turn-only (earlier Opus
// and Sonnet, Haiku through 4.5: the thinking of earlier turns is stripped before the model
// reads it), keep-all (Opus 4.5 to 5, Sonnet 4.6 and 5, Fable 5, Mythos 5: everything is
// kept, only the latest assistant message is verified) and preserved (Opus 5.5, Sonnet
// 5.5, Haiku 5.5, Fable and Mythos 5.1 and later: everything is kept and prefix-checked);
// an unknown Claude model is treated as preserved. The fake does not model the
// thinking.block_binding option (drop instead of reject) or model binding.
//
// # Server-side edits
//
// The edits of context_management are applied, in order, to the conversation as the
// model reads it, afresh on every request (the client keeps the unedited history), before
// billing:
//
//   - clear_thinking_20251015 keeps the thinking of the last keep.value assistant messages
//     that have any ("all": nothing is cleared; no keep: the model's default, one turn for
//     last-turn-only models, all for the others);
//   - clear_tool_uses_20250919, once the request passes trigger (input_tokens, default
//     100,000, or tool_uses), clears every tool use but the last keep.value (default 3),
//     oldest first, skipping exclude_tools: the result becomes ClearedPlaceholder and, with
//     clear_tool_inputs (true, or a list of tool names), the call's input becomes {}. If
//     that clears fewer than clear_at_least.value tokens, nothing is cleared.
//
// Each edit that cleared something is reported in context_management.applied_edits
// ({"type", "cleared_tool_uses" or "cleared_thinking_turns", "cleared_input_tokens"}) on
// the final message_delta event of a stream, or the message of a plain response; a
// request with context_management always gets the field, empty when nothing was applied.
//
// # Billing
//
// The input billed is the conversation after the thinking rule and the edits, rendered as
// text (tool definitions, the system prompt, then each message: text, the full text of
// each thinking block kept, each tool call's name and input, each tool result's text) and
// counted with o200k (see package tokens: Claude's tokenizer is not public, so counts
// approximate Anthropic's). Tools marked defer_loading are not in the prompt and not
// billed. The prompt cache is simulated with compact/costsim, one conversation per model,
// segments tools, system, each message, a breakpoint at the end of each request (Claude
// Code's layout), priced per family: 5-minute writes at 1.25×, reads at 0.1× (0.05× on
// Opus 5.5, 0.025× on Fable and Mythos 5.1 and 5.2), the family's minimum cacheable
// prefix. The usage of each response carries the split (input_tokens uncached,
// cache_read_input_tokens, cache_creation_input_tokens), so the client's own cost estimate
// agrees with the report. Requests answered 400 are not billed.
//
// # Running Claude Code
//
// Run starts the real CLI headless against a base URL (the API's, or a proxy's in front of
// it) with a fresh HOME, nonessential traffic and the auto-updater off, and the Read and
// Bash tools allowed, and returns its JSON result.
package claude
