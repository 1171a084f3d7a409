// Package responses is the wire codec for the OpenAI Responses API (POST
// /v1/responses), which Codex CLI and the OpenAI Agents SDK speak: Decode
// turns a request body into a chat.Conversation and Encode turns one back,
// byte for byte where nothing changed.
//
// A Responses request has no messages but a list of items, input, where a
// call, its output and the reasoning before them are items of their own.
// Each item becomes one chat.Message, so that compaction passes see the
// same shapes as for the other dialects:
//
//	item                                   Role       Parts
//	message (or {role, content})           its role   content: input_text, output_text and
//	                                                  refusal are Text, input_image an Image,
//	                                                  input_file a Document, others Unknown
//	function_call                          assistant  ToolCall: ID call_id, Name, Input = the
//	                                                  content of the arguments string
//	custom_tool_call                       assistant  ToolCall: Input = the input string's text
//	local_shell_call, shell_call           assistant  ToolCall: Input = the action object
//	function_call_output,                  tool       ToolResult: ID call_id, Content = one Text
//	custom_tool_call_output,                          for a string output, else its parts
//	local_shell_call_output
//	reasoning                              assistant  RedactedThinking (Data = encrypted_content)
//	                                                  or Thinking; Text = the summary texts
//	any other *_output item                tool       one Unknown part: the item, verbatim
//	any other item (web_search_call,       assistant  one Unknown part: the item, verbatim
//	item_reference, mcp_call, ...)
//
// A part's WireType is the item type for the parts that stand for a whole
// item, and the content type for content parts, so a pass can tell a
// custom_tool_call (whose Input is free text, not JSON) from a
// function_call. A string input ("input": "Hi") is one user message.
// Every top-level member other than input, instructions included, is a
// Field.
//
// Members the model does not cover (id, status, annotations, a reasoning
// item's content) stay in the original bytes and survive any edit of the
// item. Decode fails only when the body is not a Responses request; a
// proxy then forwards the original bytes.
//
// This package does not send requests, stream responses, follow
// previous_response_id to history the server stores, or check the
// conversation's invariants (see package compact).
package responses
