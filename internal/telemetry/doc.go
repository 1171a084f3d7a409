// Package telemetry records what winnow's gateway did to each tool result,
// and what its LLM proxy did to each request it could rewrite, as JSON lines
// in a local file, and summarises those records for `winnow stats`.
//
// An [Event] holds the time, the tool's name, keyed hashes of the session and
// of the arguments, the shape of the response, the layers that rewrote it
// (dedup, near_ref, encode, trim), the tokens before and after each layer,
// whether the result was a duplicate, and the latency the gateway added. It
// never holds text: not the response, not the argument values, not the
// session id. The gateway hands a [Call] (which does carry the texts, so that
// they can be counted) to a [Writer]; the Writer counts the tokens on its own
// goroutine, off the request path, hashes the identifiers, writes the Event
// and drops the texts.
//
// When the gateway's planner runs, an Event also says what answered the call
// in place of the upstream (a prefetch, an earlier inline, a fail-fast
// answer), the size the planner predicted for it, a keyed hash of its
// planner key, and the [Plan]s made after it: each candidate's tool, hashes
// of its arguments and key, its decision (inline, prefetch, declined), the
// reason and the predicted size. A candidate's key hashes like the agent's
// own later call with the same key, so whether a candidate was used can be
// worked out from the file afterwards; files written before these fields
// existed read as calls the planner took no part in.
//
// A [ProxyEvent] (a line with "kind":"proxy") holds the time, the dialect
// and path, the client (named from the User-Agent), the model id, a keyed
// hash of the conversation's opening messages, the status, the rewrite's
// outcome and reason, the rewriter's token counts before and after and per
// compaction pass, whether a server-side context edit was asked for, the
// usage the upstream billed (parsed from its response) and the context edits
// it reports having applied. The proxy hands an [Exchange], whose only
// trace of the conversation is a digest, never its text; the Writer keys the
// digest like every other identifier. [ProxySummary] turns these into
// tokens and dollars saved, per pass, model and client, at the list prices
// of PriceOf (one cited table; a model it does not list is unpriced).
//
// Tokens are counted exactly with o200k (tiktoken's o200k_base), winnow's
// stand-in for Claude's private tokenizer, so "before" is the number of tokens
// the upstream server returned and "after" the number the agent received.
// Texts above [Options].MaxExactBytes are estimated instead (see
// tokens.Estimator; within a few percent on large texts) and the Event says
// so in its Counter field.
//
// Identifiers are hashed with HMAC-SHA256 under a key drawn at random when
// the Writer opens and never stored: equal arguments within one gateway run
// (equal conversations within one proxy run) hash alike, and nobody can test
// a guess ("number":12?) against the file.
//
// Telemetry is opt-in ([telemetry] enabled in the configuration). The package
// does not send anything anywhere, does not decide whether it is enabled, and
// does not read configuration; the command line wires it.
package telemetry
