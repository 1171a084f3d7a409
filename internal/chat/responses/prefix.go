package responses

import "github.com/winnowhq/winnow/internal/chat/internal/rawjson"

// FirstMessageEnd returns the offset in body just past its first input
// item, found by scanning only the members before the input array and
// that item, or -1 if body does not start like a request with an input
// array. body[:FirstMessageEnd(body)] keys a conversation cheaply (its
// model, whatever precedes the input, and the first item): requests that
// extend one another share it, so a cache of earlier requests can be
// keyed by it. Codex CLI's first item is its developer instructions,
// which its conversations share, so there the key narrows the requests a
// body may extend rather than naming one. It is no parse: the rest of
// body may still be malformed.
func FirstMessageEnd(body []byte) int {
	return rawjson.FirstElementEnd(body, "input")
}
