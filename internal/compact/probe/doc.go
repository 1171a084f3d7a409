// Package probe measures whether a compaction kept what the agent went on
// to need: the recall probe of the compaction benchmark. It reads facts
// from an original trajectory and checks them against the compacted
// requests of the same turns. It does not compact anything and does not
// judge summaries or meaning: it checks strings.
//
// # Facts
//
// A fact is a string the agent learned from a tool output and used
// later. Two kinds are extracted from every tool output (see
// traj.Observations):
//
//   - file paths: a run of path characters with at least one "/" and a
//     file extension that starts with a letter ("/repo/x/y.py",
//     "src/foo.go", "./a.b/c.tsx"), not inside a URL and not running on
//     into more word characters;
//   - error lines: a line of at most 300 bytes (and at least 8) that,
//     trimmed, starts like an error report (an exception name ending in
//     Error or Exception followed by ":" or the end of the line, with an
//     optional pytest "E" and module prefix; "Traceback (most recent call
//     last)"; FAILED, FAIL or ERROR; panic:, fatal:, error:) or carries a
//     compiler's ": error:". Code that merely names an error ("raise
//     ValueError(") is not one. An agent often quotes only the message
//     after "Type: ", so that part (when at least 16 bytes) is accepted
//     as the same fact.
//
// A candidate becomes a fact only if a later assistant message uses it
// (has it in its text or in a tool call's name or decoded arguments) and
// nothing before the output held it: a path the agent typed itself ("open
// src/x.py") or that the task named was not learned from the output, and
// its survival says nothing about how the output was compacted. A string
// shown by several outputs belongs to the first.
//
// # Checks
//
// At every turn that uses a fact, the compacted request for that turn
// (the one the agent answered with the using message) must hold it:
//
//   - present: the fact's string is somewhere in the request's text
//     (any message, the system prompt or the tools, as traj.Render reads
//     them; the agent's own earlier mention counts, since the model sees
//     it);
//   - recoverable: it is not, but the slot of the output it came from is
//     still in the request (the tool result answering the same call id;
//     in the text form, the message at the same index when the request
//     still has as many messages as the original, so indices line up) and
//     holds a retrieval handle: a match of Options.Handle, by default a
//     winnow:// URI (DefaultHandle) that a tool resolves back to the
//     elided bytes. A placeholder that only says something was removed
//     ("[output elided]"), or asks the agent to re-run a command whose
//     result may have changed since, is not a way back.
//
// A fact is present if it is present at every use, recoverable if it is
// present or recoverable at every use and not always present, and lost
// otherwise; a use whose request was never checked counts as lost. The
// recall is (present + recoverable) / facts, and 1 when there are none.
package probe
