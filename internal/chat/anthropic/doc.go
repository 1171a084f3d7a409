// Package anthropic is the wire codec for the Anthropic Messages API
// (POST /v1/messages): Decode turns a request body into a
// chat.Conversation and Encode turns one back, byte for byte where nothing
// changed.
//
// Mapping: the top-level system (string or blocks) is Conversation.System;
// each message's content (string or blocks) is its Parts. Blocks text,
// thinking, redacted_thinking, tool_use, tool_result (string or block
// content, is_error), image and document are modelled. Everything else,
// server tool blocks (server_tool_use, web_search_tool_result, mcp_tool_use,
// code_execution_tool_result, …), search results, container uploads and
// whatever the API adds next, is an Unknown part that is carried through
// untouched. Server tool calls and their results live together in one
// assistant message and are resolved by the API itself, so a pass has no
// business editing them, and the client-side pairing rules do not apply.
//
// Decode never fails on an odd block: a modelled block with a missing or
// mistyped member becomes Unknown too, so the codec never rebuilds what it
// did not fully understand. It fails only when the body is not a Messages
// request at all, and then a proxy forwards the original bytes.
//
// This package does not send requests, stream responses, or check the
// conversation's invariants (see package compact).
package anthropic
