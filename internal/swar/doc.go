// Package swar provides word-at-a-time ("SIMD within a register") tests
// for the JSON and text scanners of packages shape, trimtree and
// gateway/pipeline: eight bytes of a string are loaded into one uint64
// and tested together with a few integer operations, so the scanners
// pass over plain runs of text (string contents, indentation, printable
// bytes) eight bytes per step instead of one.
//
// The tests use the classic bit tricks for "has a zero byte",
// (x-0x01…)&^x&0x80…, and "has a byte below n" (n ≤ 0x80),
// (x-n·0x01…)&^x&0x80…. Each returns a mask with the high bit set of the
// bytes it flags. The contract is that of those tricks: the first
// flagged byte (the lowest, as words are loaded little-endian) is exact
// — it is the first byte that matches — but later flagged bytes may be
// false positives, as a borrow out of a matching byte runs on into the
// next one. So a mask answers "is there a match in this word" and, with
// FirstByte, "where is the first", and nothing more. Functions whose
// mask is exact for every byte (ZeroBytes, NonSpaces) say so.
//
// The functions are small enough to be inlined into the scanners' loops;
// keep them so. Package swar does not parse JSON or validate UTF-8: it
// only finds bytes.
package swar
