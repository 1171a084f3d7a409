package anthropic

import "github.com/winnowhq/winnow/internal/chat/internal/rawjson"

// FirstMessageEnd returns the offset in body just past its first message,
// found by scanning only the members before the messages array and that
// message, or -1 if body does not start like a request with messages.
// body[:FirstMessageEnd(body)] names a conversation cheaply (its model,
// whatever precedes the messages, and the task): requests that extend
// one another share it, so a cache of earlier requests can be keyed by
// it. It is no parse: the rest of body may still be malformed.
func FirstMessageEnd(body []byte) int {
	return rawjson.FirstElementEnd(body, "messages")
}
