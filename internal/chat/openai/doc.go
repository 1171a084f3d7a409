// Package openai is the wire codec for the OpenAI Chat Completions API
// (POST /v1/chat/completions) and the many servers that speak it: Decode
// turns a request body into a chat.Conversation and Encode turns one back,
// byte for byte where nothing changed.
//
// Mapping, chosen so that compaction passes see the same shapes as for
// Anthropic:
//
//   - system, developer and user messages keep their role; content (a
//     string or an array of parts) becomes Parts: text and refusal parts
//     are Text, image_url an Image, file a Document, anything else
//     (input_audio, …) Unknown;
//   - an assistant message's reasoning text (reasoning_content, else a
//     string reasoning) is a leading Thinking part, its content parts
//     follow, then one ToolCall per tool_calls entry and one for a legacy
//     function_call. A ToolCall's Input is the content of the JSON string
//     arguments, so it reads like Anthropic's input; the string's exact
//     bytes are kept while Input is unchanged;
//   - a tool message (or a legacy function message) is one ToolResult part
//     with ID = tool_call_id, Name = name and Content = the content.
//
// Members the model does not cover (name, refusal, audio, annotations,
// vendor extensions) stay in the original bytes and survive any edit.
// Decode fails only when the body is not a Chat Completions request; a
// proxy then forwards the original bytes.
//
// This package does not send requests, stream responses, or check the
// conversation's invariants (see package compact).
package openai
