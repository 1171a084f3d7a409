// Package compact shrinks an agent's conversation history and checks that
// the result is still a request the API accepts.
//
// A compaction bug must never cost the user a failed request, so every
// compacted conversation goes through Validate before it is sent; on any
// Violation the proxy forwards the client's original bytes instead. The
// passes themselves (dropping and snipping stale tool output, and so on)
// live in their own files; this comment documents the invariants they
// must keep, which is what Validate enforces.
//
// # Invariants
//
// Both APIs:
//
//   - No user message is lost. A pass may shorten a user's message but
//     never drop one: the number of user messages with human content
//     (user messages that are not tool results) must equal the original's.
//   - Every tool call is answered exactly once, in the place the API looks
//     for the answer, and every answer has its call (below, per API).
//
// Anthropic Messages API:
//
//   - Every tool_use block in an assistant turn has exactly one tool_result
//     in the next turn, which is a user turn, and every tool_result answers
//     a tool_use of the turn immediately before it. Observed API errors:
//     "`tool_use` ids were found without `tool_result` blocks immediately
//     after … Each `tool_use` block must have a corresponding `tool_result`
//     block in the next message" and "unexpected `tool_use_id` found in
//     `tool_result` blocks". See "Handle tool calls",
//     https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls.
//   - In a user turn, tool_result blocks come before any other content.
//   - Roles: the first message is a user message. Consecutive messages of
//     one role are not an error: the API merges them into one turn (the
//     compaction guide says a kept message of the same role "the API merges
//     … into the last summarized message",
//     https://platform.claude.com/docs/en/build-with-claude/compaction-thinking-blocks).
//     Validate therefore checks the tool rules on merged turns, as the API
//     does, and, given the original, reports a merge that compaction
//     created (by dropping the message between two of one role), because
//     it silently changes the turn structure the model saw.
//   - No empty content: "all messages must have non-empty content except
//     for the optional final assistant message"; "text content blocks must
//     be non-empty", and a message's text must not be whitespace only. Text
//     inside a tool_result may be empty.
//   - Thinking. Thinking and redacted_thinking blocks travel back
//     byte-identical, signature included ("Pass thinking blocks back
//     complete and unmodified"; rebuilding the message "triggers a 400
//     error", https://platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows).
//     With thinking enabled, the assistant turn of an active tool-use loop
//     (the turn the trailing tool results answer) keeps its thinking
//     blocks; thinking may be dropped only from earlier, finished turns
//     (https://platform.claude.com/docs/en/build-with-claude/thinking,
//     "Preserving thinking blocks").
//   - The prefix rule. Newer models bind each thinking block to everything
//     before it: "The top-level system prompt, tools, and messages before
//     the block are its prefix. If the prefix differs from what you sent
//     when the block was produced, that block and every later thinking
//     block are invalid, and the API rejects the request with a 400 error"
//     (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking).
//     So if a compacted request keeps any thinking block, the system prompt,
//     the tools and every message before the last kept block must be
//     identical to the original, message by message. Dropping thinking from
//     an earlier turn changes that prefix too.
//
// OpenAI Chat Completions API
// (https://platform.openai.com/docs/api-reference/chat/create):
//
//   - Every id in an assistant's tool_calls has a tool message with that
//     tool_call_id among the tool messages that directly follow it, before
//     any other message ("An assistant message with 'tool_calls' must be
//     followed by tool messages responding to each 'tool_call_id'").
//   - No orphan tool messages ("messages with role 'tool' must be a
//     response to a preceding message with 'tool_calls'").
//   - An assistant message has content unless it has tool_calls (or a
//     legacy function_call); system, developer and user messages have
//     content.
//   - A tool call's arguments are a JSON string holding valid JSON.
//
// Validate checks the content rules (empty content and text, arguments)
// only on messages a pass changed or added: an untouched message is
// exactly what the client sent, including members the chat model does not
// see (an assistant's refusal, say), and compaction cannot have broken
// it. The rules that span messages (pairing, roles, thinking, users) are
// checked everywhere, since dropping one message breaks its neighbours.
//
// The original for the prefix rule must be the conversation the kept
// thinking blocks were produced against. For a client's own history that
// is the request as received; a proxy that rewrites history stickily
// (the same edit on every turn) sends the model a rewritten prefix, and a
// thinking block produced after it is bound to that rewritten prefix.
package compact
