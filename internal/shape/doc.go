// Package shape classifies tool responses by shape and re-encodes them
// losslessly into fewer tokens. It is the engine of the gateway's
// "shape + encoders" stage: the stage hands it a response's text and a
// token counter and gets back either a shorter text and the name of its
// encoding, or the text unchanged.
//
// It does not drop or trim anything (trimtree does, under a budget), does
// not cache, and does not decide whether an agent needs a response.
//
// # Shapes
//
// Classify parses JSON strictly (RFC 8259, numbers kept as written, key
// order and duplicate keys kept) and names what it finds: an array of
// objects (json_array_objects), an object whose biggest member is an
// array of objects (json_wrapper_array), an object of scalars
// (json_object_flat) or any other object (json_object_nested), an array
// of scalars, a mixed array, a lone scalar. Text that is not JSON is a
// markdown_table when it is exactly one GitHub-flavoured table, else log,
// code or prose by line heuristics. Text that is not UTF-8 or holds NUL
// bytes is binary; whitespace is empty; text over MaxBytes is unknown and
// not inspected.
//
// # Encoders
//
// Each encoder has its decoder next to it, and its file's comment shows
// what a model reading the output sees:
//
//   - json_compact: JSON without whitespace (compact.go).
//   - kv: an object as "key: value" lines (kv.go).
//   - table: an array of objects as "[rows]:", a header line and one
//     '|'-separated line per object; nested objects that every row has
//     (or has as null, or lacks) are spread over dotted columns
//     (user.login), and a column with one value in every row is written
//     once in the header as name=value (table.go, columns.go).
//   - wrapper_table: a wrapper object as kv lines with its big array as a
//     table in place (wrapper.go).
//   - md_csv: a markdown table as CSV (mdcsv.go).
//
// # Value syntax
//
// kv, table and wrapper_table write each JSON value the way a reader
// expects, and so that it reads back exactly (cell.go):
//
//   - null, true and false as the words, a number as its literal text
//     ("1e400" and "0.10" stay as written);
//   - a string bare when nothing else could be mistaken for it, and
//     otherwise as a JSON string literal in double quotes;
//   - an array or object as compact JSON.
//
// A string is quoted when it is empty; starts with '"', '{' or '[' (it
// would read as JSON); starts or ends with a space; holds a line break, a
// tab or any other character that is not printable; could be read as a
// number (anything strconv.ParseFloat accepts: "42", "007", "1.5e3",
// "NaN") or as null, true or false in any case; or, in a table cell,
// holds the column separator '|'. So a bare 42 is a number and "42" the
// string; a bare null is null and "null" the string. Every value sits on
// one line, so line structure is never ambiguous.
//
// # Lossless, and the gate
//
// Lossless means Decode(encoder, Encode(x).Text) is the same JSON as x:
// the same values, the same key order in every object, the same number
// literals ("1e400" stays 1e400, "0.10" stays 0.10) and the same strings
// (escapes may differ: "\u00e9" and "é" are the same string). For a
// markdown table it means the same cells; alignment and padding are not
// kept.
//
// Encode does not trust its encoders: it decodes the shortest candidate
// and compares the result with the parsed input before returning it. On
// any difference it returns the input and names the rejected encoder in
// Result.Rejected, so a bug costs tokens, never data. A JSON string with
// an unpaired surrogate escape ("\ud800"), which no re-encoding can
// reproduce, is kept as it is.
//
// # Representation
//
// A parsed document is a tape (value.go): one flat slice of nodes in
// document order, a container before its children, an object's keys and
// values alternating. A node holds its kind and two numbers: for a
// scalar or key, the span of its text in the input (or, for a string with
// escapes, in one string of decoded contents shared by the document); for
// a container, its number of children and where its descendants end. A
// parse therefore allocates no node, string or slice per value, and
// tapes are reused across calls (pool.go).
//
// Every encoder reads the one tape of its input, and every decoder writes
// one: the gate decodes a candidate onto a second tape and compares the
// two node by node, kinds, container sizes, number literals and string
// contents, in a single pass without recursion.
//
// # Choosing
//
// Encode counts every candidate with the caller's counter and keeps the
// one with the fewest tokens if it is strictly shorter than the input.
// Some layout choices inside the table encoder (whether to spread a
// nested object, whether to hoist a constant column) are made by byte
// estimates, since both layouts are exact and counting tokens for each
// would cost more than it saves.
package shape
