// Package shape is the token benchmark of the response encoders behind
// `winnow bench shape`: over the devboy fixtures (real GitHub and GitLab
// tool responses), generated GitHub- and GitLab-like arrays of 10, 100
// and 1000 objects, and any JSON files the user names, it counts the
// tokens of each document as pretty JSON (as the server sent it),
// compact JSON, winnow's encoding (internal/shape.Encode) and TOON, the
// peer format, and checks that winnow's encoding decodes back to the
// same JSON.
//
// It does not time anything: encoder speed is measured by the Go
// benchmarks of internal/shape (go test -bench . ./internal/shape).
//
// # Counting
//
// Tokens are counted with one counter for every format, exact o200k by
// default (OpenAI's tokenizer, winnow's stand-in for Claude's, which is
// not public). Ratios are against compact JSON, the fair baseline: any
// gateway can strip whitespace. The target is at least 25% fewer
// tokens than compact JSON on arrays of objects, with every round trip
// exact.
//
// # TOON
//
// TOON is the npm package @toon-format/toon, run by node: the package is
// looked up in the directories given (--toon-dir, a node_modules
// directory), then in NODE_PATH. Without node or the package the report
// says "toon: not available" and why; nothing is estimated in its place.
// TOON's own round trip is reported two ways: "js" when decode(encode(x))
// equals x as JavaScript reads it, and "exact" when it is also the same
// JSON as the original text. JavaScript reads every number as a double,
// so 1e400 becomes null and 0.10 becomes 0.1, and it moves integer-like
// keys to the front of an object; those are losses of the JavaScript
// pipeline, not of TOON's syntax, and the report keeps them apart.
package shape
