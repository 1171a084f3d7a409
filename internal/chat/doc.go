// Package chat is a provider-neutral model of an LLM conversation: the
// request an agent sends to the Anthropic Messages API, the OpenAI Chat
// Completions API or the OpenAI Responses API, decoded so that compaction
// passes can read and rewrite it, and re-encoded so that the API accepts
// it.
//
// A Conversation holds the Messages, Anthropic's System prompt and every
// other top-level member of the request as ordered raw Fields. A Message
// has a Role and Parts; a Part is text, thinking (with its signature),
// redacted thinking, a tool call (arguments as exact JSON bytes), a tool
// result (error flag, content as nested parts), an image, a document, or an
// Unknown block the codecs do not model. The wire codecs live in
// chat/anthropic, chat/openai and chat/responses; this package imports
// only the standard library and knows nothing of any wire format.
//
// # Byte fidelity
//
// A proxy that rewrites history must not disturb what it did not mean to
// change: unknown members (cache_control, citations, a client's own keys),
// unknown block types, key order, and on newer Anthropic models the exact
// prefix a thinking block was produced against. So every decoded
// Conversation, Message and Part remembers its original JSON, and:
//
//   - an unchanged element is encoded as its original bytes, exactly; an
//     untouched request encodes to the very body it was decoded from;
//   - a changed element is re-encoded from its original object with only
//     the modelled members replaced, so everything else survives, in its
//     original order and spacing;
//   - a new element (or one whose Type changed) is encoded afresh.
//
// # Why "modified" cannot be forgotten
//
// The fields are plain exported fields, so a pass can write p.Text = "…"
// or p.Content = nil without ceremony. The obvious alternative, mutator
// methods that clear the original bytes, only works if nobody assigns a
// field directly, and in Go nothing stops them. Instead, decoding stores,
// next to the original bytes, a private snapshot of the modelled fields
// (and the identity of every child part). An element counts as unchanged
// only while its fields still equal that snapshot and its children are the
// same, unchanged children in the same order; the codecs ask Unchanged at
// encode time. Nothing has to be marked, so nothing can be forgotten, and a
// field set back to its old value is, correctly, unchanged again. The cost
// is one comparison per field at encode time; unchanged strings share
// their memory with the snapshot, so the comparisons are pointer checks.
// Only tool-call Input and the top-level Fields, being mutable byte slices,
// are copied for the snapshot.
//
// Origins are shared, never mutated: Clone copies a conversation deeply
// but keeps its origins, so a pass can work on a clone while the original
// stays intact for validation and as the fallback to forward.
//
// What this package does not do: it neither reads nor writes any wire
// format, counts tokens, or decides what to compact.
package chat
