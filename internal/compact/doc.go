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
//     never drop one: every user message with human content (a user
//     message that is not tool results) is still there, or, when out was
//     decoded on its own and cannot be lined up with the original, there
//     are at least as many. (The repair pass may add one: a tool result
//     that answers no call becomes text.)
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
// ValidateBound takes that prefix (for a Compactor, a Run of the history
// up to the block) and checks the rule against it; Compactor.Rewrite uses
// it whenever the compacted request keeps a thinking block.
//
// # Passes
//
// A Compactor runs its passes in one order (PassNames): dedup, snip,
// clear, args, lexical, thinking, trim, repair; each is one file and
// reports what it changed and why. Thinking and repair always run, since
// without them a compacted request could be one the API rejects.
// Compactor.Rewrite is the whole round trip for a proxy: decode, Run,
// validate against the body as received, encode; on any violation it
// returns the body as received.
//
// # Cache-stable by construction
//
// Providers serve a request from their prompt cache only as far as it
// repeats an earlier request byte for byte, and bill what they write to
// the cache above the price of what they read (Anthropic: 1.25× and
// 0.1×). A compaction that rewrites old tool output a little more every
// turn sends fewer tokens but misses the cache from the first rewritten
// message on, turn after turn: on the benchmark's trajectories a rolling
// mask of all but the last three outputs sends 0.43× the tokens at 1.9×
// the cost. Compaction here is instead a deterministic function of the
// history that changes rarely:
//
//   - The horizon H is the number of leading messages that are stale.
//     Passes rewrite only messages before H (trim and thinking act on the
//     ranges their batch names), and what they write for a message
//     depends only on messages before the horizon of the batch that made
//     it stale. Messages from H on are sent exactly as received.
//   - H moves in batches, found by replaying the history: for every
//     message boundary m, as if the request ended there, the candidate
//     horizon is the call of the Keep-th most recent tool output (a
//     boundary never falls between a call and its results). A batch moves
//     H there when the request, as compacted so far, has reached Trigger
//     tokens, the stale outputs between H and the candidate would give
//     back MinBatch tokens, and those tokens are at least Payback times
//     what the batch makes the provider write again (everything from the
//     old H to the end). Each decision reads only messages before m.
//   - So request n+1, whose history extends request n's, replays the
//     same batches up to n and gets the same rewrite of every message of
//     request n, unless a batch fires between the two: consecutive
//     requests share their whole rewritten prefix except at the batch
//     points, and a batch changes nothing before the previous horizon.
//     Token counts are estimates (tokens.Estimator), deterministic by
//     construction; the replay is linear in the number of messages, with
//     prefix sums. No store is needed, and every replica of a proxy
//     agrees.
//
// The tests check this on every recorded trajectory of both dialects:
// each compacted request starts with the previous one's compacted
// messages except at batch points, and batch points are few (with the
// defaults, 24 in 401 requests, at most 2 per run).
//
// What it buys, on the 18 recorded runs (`winnow bench compact`): 0.53×
// the tokens at 0.77× the cost with Anthropic's caching (0.57× with
// OpenAI's), no violation, every fact the agent used later still there or
// behind a placeholder that names its call. Caching sets a floor: the
// raw runs' cache writes (each new message, once, at 1.25×) are 49% of
// their cost and no compaction of stale history avoids them, so even
// clearing every output but the last on every turn at no cache penalty
// would cost about 0.68×. Keep 1 gives 0.50× and 0.74×, Keep 3 0.56× and
// 0.79×; the default keeps two outputs, so that an agent that reads a
// file and then runs something still sees the file when it edits.
//
// # Thinking
//
// What a request may change around thinking blocks depends on the model
// (Family, from the request's model id; an id not known is Preserved,
// the strictest):
//
//   - Every model: thinking and redacted_thinking blocks travel back
//     byte-identical, and within a tool-use turn the latest assistant
//     message's blocks must be there, unmodified: "within a tool-use
//     turn, pass thinking blocks back", "you can't rearrange, edit, or
//     partially drop them"; outside tool use "omit prior turns'
//     thinking" is allowed
//     (https://platform.claude.com/docs/en/build-with-claude/thinking).
//     "A tool-use loop is one assistant turn": it ends at the next user
//     message that is not tool results.
//   - LastTurn and KeepAll models (Claude 4.x, Opus 5, Sonnet 5, Fable 5,
//     Mythos 5) check only the latest assistant message's blocks;
//     "models before Claude Fable 5.1 don't run the prefix check"
//     (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking).
//     A batch never reaches the latest assistant message (the outputs it
//     keeps answer it), so batches fire anywhere, inside a tool loop
//     too, and keep every thinking block byte for byte.
//   - Preserved models (Fable 5.1 and later, Opus 5.5, Sonnet 5.5,
//     Haiku 5.5, Mythos 5.1 and later) bind each block to its prefix:
//     "The top-level system prompt, tools, and messages before the block
//     are its prefix. If the prefix differs from what you sent when the
//     block was produced, that block and every later thinking block are
//     invalid"; thinking may be removed "from the start of the history
//     (oldest first), from the end, or all of them", never from the
//     middle, and a removed block is never put back (same page, "What
//     counts as an edit"). Clearing an earlier tool_result is "Invalid
//     for every later thinking block".
//
// On a Preserved model, then, a client-side batch fires only at a
// boundary where no assistant message of the current turn, at or after
// the first message the batch changes, holds thinking while the request
// ends with tool results; otherwise it waits, deterministically, for the
// turn to end. When it fires, it drops every thinking block from the
// first message it changes to the end of that request (removal "from the
// end"), and those drops stick like every other edit. Blocks produced
// later are bound to the rewritten prefix, which every later request
// repeats.
//
// A coding agent's whole task is one tool loop, so on a Preserved model
// that wait is forever. There, with Options.ServerEdits, the horizon is
// realised by the API's own context editing instead: the messages go as
// the client sent them and the request asks for a clear_tool_uses edit
// that keeps exactly the tool uses from the horizon on. "Server-side
// compaction or context editing removes or replaces content" is a valid
// edit, since "the check compares what you sent, not the server's edited
// copy" (preserved-thinking, "What counts as an edit"), and "server-side
// context management never invalidates thinking blocks"
// (https://platform.claude.com/docs/en/build-with-claude/context-editing).
// It is appended after the client's own edits ("the
// clear_thinking_20251015 strategy must be listed first"), never
// replaces one, and needs the context-management-2025-06-27 beta (see
// server.go). Whether a conversation is compacted client- or server-side
// depends only on its model and the options, so it never switches midway
// (which would invalidate thinking bound to the rewritten prefix).
//
// # Tool outputs and the text form
//
// A tool output is a tool result: an OpenAI tool message, an Anthropic
// tool_result block. Agents that call tools through text instead
// (SWE-agent, SWE-smith) put the command in a block at the end of the
// assistant message (<function=NAME>…</function>, or a bare ``` fence)
// and get the output back as a user message. In a conversation that has
// no tool calls up to that point, a user message that directly answers
// such an assistant message is treated as that command's output; any
// other user message is a person's, and no pass rewrites or drops a
// person's message. Options.NoTextForm turns the text form off.
//
// # Placeholders
//
// Every rewritten output says what it was and how to get it back: the
// call that produced it, as the model can make it again ("[winnow: output
// of read_file {"path":"a.py"} cleared (120 lines); call it again if
// needed]"). HandlePattern matches them. The call is the model's own, so
// placeholders carry file paths and commands, but not the output itself:
// re-running a command may give a different answer than it did then.
package compact
