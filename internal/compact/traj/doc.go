// Package traj loads recorded agent trajectories and replays them as the
// request bodies the agent sent, so that compaction can be measured on
// real conversations turn by turn. It works on wire bytes (JSON messages
// in the OpenAI Chat Completions or the Anthropic Messages dialect), not
// on the provider-neutral model of internal/chat, and it does not
// compact, count tokens or price anything: internal/compact/costsim and
// internal/bench/compact do that.
//
// # Formats
//
// A file is recognised by its shape, not its name:
//
//   - an array of records with "messages": ADP OpenHands records (OpenAI
//     messages with tool_calls and tool results, plus "tools") and ADP
//     SWE-smith records (text-only system/user/assistant messages, tool
//     calls written as <function=...> text, observations as user
//     messages); one trajectory per record;
//   - an array of records with "trajectory": ADP nebius/SWE-agent records,
//     steps of role system/user/ai; written as OpenAI text messages;
//   - an object with "history": a SWE-agent .traj file, in the text form
//     or the function-calling form (see parseSWEAgent); written as OpenAI
//     messages;
//   - an array of messages: one conversation, OpenAI or Anthropic;
//   - an object with "messages": one record, or a request body of either
//     dialect (an Anthropic body's "system" becomes System);
//   - a .jsonl file: one record per line.
//
// # Dialects
//
// Which dialect a message list is in is read from the shapes only one
// dialect has: OpenAI's tool role, tool_calls, tool_call_id, developer
// role, image_url parts; Anthropic's tool_use, tool_result, thinking and
// image blocks. A list with both is an error. A list of text-only
// messages reads the same in both; it becomes Anthropic messages when a
// Claude model produced it (the SWE-smith records, by
// claude-3-7-sonnet and claude-3-5-sonnet) and OpenAI messages
// otherwise, so that the data set exercises both codecs. For Anthropic,
// leading system messages become System, and Chat Completions tool
// definitions are converted to the Messages API's shape.
//
// Loading normalises only what an API would reject: object members whose
// value is null are dropped (the ADP exports carry every field of every
// message, mostly null, and null-filled tool schemas), SWE-agent's
// function-calling history gets proper tool_calls and one tool message
// per answered call, and nebius's "ai" role becomes "assistant". Every
// loaded trajectory passes Validate: its messages parse, and tool calls
// and results pair up (only the last message may hold calls still
// without results, as when a run ends with its finish call).
//
// # Requests
//
// Requests turns a trajectory into the bodies its agent sent: one per
// assistant message, carrying every message before it, in the dialect's
// shape with model, max_tokens, tools and (Anthropic) system. Nothing is
// added that the agent did not send: no cache_control markers, which the
// cache simulator assumes instead (see internal/compact/costsim).
// ParseRequest and Render take bodies apart again for measuring, and
// Observations finds the tool outputs in a message list, which is what
// compaction shrinks and what the recall probe reads facts from.
package traj
