// Package codex measures winnow's proxy with the real Codex CLI: it runs `codex exec`
// through a scripted session against a fake OpenAI Responses API that checks every
// request against the API's rules, as an oracle independent of winnow's own codecs, and
// bills it as OpenAI would, prompt cache included. Run the same script straight at the
// fake and through the proxy, and the two Reports compare what the proxy costs or saves
// and whether it ever sent a request OpenAI would refuse.
//
// It does not generate text, call OpenAI, or serve more of the Responses API than Codex
// uses: POST /v1/responses, streamed, with store false. It does not start the proxy
// (Options.Route does) and does not find or install Codex (@openai/codex on npm).
//
// # The script
//
// Every response is a reasoning item (a summary, and encrypted_content standing for the
// reasoning text, as with store false and include ["reasoning.encrypted_content"])
// followed by one item: at steps 1..Steps a tool call built from the tools the request
// offers, then the final answer, an assistant message. A reading step calls
// exec_command (or shell, or local_shell) with `cat pkg/partNN.go`, a generated 20–32 KB
// Go file of the workspace (WriteWorkspace), or with the next of ServerOptions.Files in
// turn; every PatchEvery-th step instead adds a note with the custom tool apply_patch. A
// tool output must show the first line of its file (or the note's path). The step of a request is one past the highest
// step whose tool output it carries, so a request that dropped old steps still gets the
// next one. The stream is the API's event sequence: response.created,
// response.in_progress, then per item output_item.added, its deltas (reasoning summary
// part and text, function call arguments, custom tool call input, or content part and
// output text) and output_item.done, and response.completed with usage (input_tokens,
// input_tokens_details.cached_tokens, output_tokens and its reasoning_tokens,
// total_tokens), every event numbered by sequence_number.
//
// With ServerOptions.Calls the steps are those function calls instead, by name and, for
// an MCP tool, the namespace Codex lists it in (mcp__<server>); the outputs Codex sends
// back are kept for Server.ToolResults. ExecConfig runs `codex exec` with a config.toml of
// the caller's (Config plus an [mcp_servers.<name>] table).
//
// # The rules
//
// The fake issued every item id, call id and encrypted_content it streamed, and knows
// which items it produced together, so it checks, in this order, and answers the first
// broken rule as the API does (message, status, param, code), recording every one:
//
//   - previous_response_id is refused: with store false there is nothing to continue
//     ("Previous response with id '…' not found.");
//   - no two items share an id ("Duplicate item found with id …. Remove duplicate items
//     from your input and try again.");
//   - an item of a kind only the model produces (reasoning, function_call,
//     custom_tool_call, assistant message) carries its kind's prefix ("Invalid
//     'input[N].id': '…'. Expected an ID that begins with 'fc'.") and an id the fake
//     issued, for that kind and call id: an altered or unknown id is 404 "Item with id
//     '…' not found. Items are not persisted when `store` is set to false. …";
//   - every function_call, custom_tool_call and local_shell_call has exactly one output
//     of its kind after it ("No tool output found for function call call_….") and every
//     output has its call before it ("No tool call found for function call output with
//     call_id call_….");
//   - a reasoning item the fake issued comes back with its encrypted_content, byte for
//     byte ("The encrypted content gAAA...xxxx could not be verified.", code
//     invalid_encrypted_content; without it, the 404 above), and right after it comes the
//     item it was produced with ("Item 'rs_…' of type 'reasoning' was provided without
//     its required following item.");
//   - an item produced after a reasoning item has that reasoning item before it ("Item
//     'fc_…' of type 'function_call' was provided without its required 'reasoning'
//     item: 'rs_…'."). The API can only tell from the item's id; for an item sent without
//     one the fake asks for its reasoning only after the last user message, where
//     OpenAI's documentation says a tool call's reasoning items must all be sent back.
//
// The messages are OpenAI's as clients have reported them (openai/codex,
// openai/openai-node, vercel/ai, continuedev/continue issues); the two duplicate-output
// messages have no public original and are the fake's own wording. Dropping a whole
// step (reasoning, call and output together), shortening a tool output, and dropping the
// ids and reasoning of steps before the last user message are all allowed.
//
// # Billing
//
// A request is billed as the prompt a cache sees: one segment for the instructions and
// tools, then one per input item rendered as the model reads it (a message's role and
// text, a call's name and arguments, an output's text, and for a reasoning item the
// reasoning text its encrypted_content stands for, when it comes after the last user
// message; the API drops older reasoning). Segments are o200k token ids (internal/tokens
// through costsim.Encoder), priced by costsim with OpenAI's automatic prefix cache, one
// cache per prompt_cache_key, cached tokens at CacheRead (0.1 for the GPT-5 family). The
// usage of each response reports the same numbers, so Codex's own totals agree.
//
// # Running Codex
//
// Exec writes CODEX_HOME/config.toml (Config) with a provider of its own, wire_api
// "responses" and env_key FAKE_API_KEY (Codex 0.169 ignores OPENAI_BASE_URL alone and
// refuses wire_api "chat"), a context window large enough that Codex never compacts by
// itself, and no retries; sets HOME to a scratch directory; and runs `codex exec
// --skip-git-repo-check --json --dangerously-bypass-approvals-and-sandbox` in the
// workspace (Codex's sandbox needs landlock and seccomp, which containers often lack).
// A session completed when the fake issued the final answer, refused nothing, and Codex
// exited 0 with that answer as its last message.
package codex
