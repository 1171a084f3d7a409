/*
Package pipeline shapes the result of every tools/call the MCP gateway
passes to the agent: it replaces repeats by references, re-encodes
losslessly and trims what is over budget, and it serves the winnow__more
tool that returns what was trimmed. It also invalidates, before a mutating
call is dispatched, the cached results the call makes stale.

It does not talk to upstream servers, dispatch calls, read configuration
or prefetch (package gateway and the planner do); it does not write
telemetry itself (it hands a telemetry.Call to Options.Telemetry).

# Stages

A [Stage] has a Before, run ahead of the dispatch, and an After, run on
the result; [Default] assembles the standard ones in order:

 1. [Invalidate], before dispatch: a call whose tool is named like a
    change (edit_file, issue_write, notion-update-page; not get_commit or
    list_merge_requests) or that Options.Invalidates lists drops the
    session's cached results of the same upstream (for tools with path
    arguments, only those about the same paths, inside or around them)
    and of the tools Options.Invalidates names.
 2. [Dedup]: a text identical to one of the session's last
    Options.DedupWindow texts (of at least Options.MinDedupChars bytes)
    becomes "[same result as github__get_issue {"number":12}, 2 calls
    ago]". Results with long arguments are stamped "#r3" on a first line
    so that references to them stay short ("[same result as #r3, 1 call
    ago]"). A JSON text that differs from a remembered one of the same tool
    in a few scalar values becomes "[same as ..., except: state: "open" →
    "closed"]" if that takes at most half its tokens and the changes,
    parsed back from the line and applied to the earlier text, give the new
    text byte for byte (nearref.go). Any text that differs from one of the
    same tool and arguments by a few lines becomes a line diff, "[winnow:
    same as the result of fs__read_text_file {"path":"a.go"} (call 3)
    except:" and unified hunks without context, on the same two
    conditions (linediff.go).
 3. [Encode]: package shape's lossless re-encoding (a JSON array of
    objects as a table, compact JSON, key: value lines), kept when it has
    fewer tokens.
 4. [Trim]: a result still over Options.CallBudget tokens is cut by
    package trimtree to the items worth most to the agent (the words of
    the call's arguments and of the session's recent calls are the
    signals), and one line gives the exact call for the rest:
    "[68 more items: winnow__more {"ref":"r7"}]". The budget is lower
    when the agent's client would cut a result that long itself
    (Call.Client; clientcap.go). A re-encoded text
    is trimmed in its original form and the selection encoded again, so a
    table stays a well-formed table.

# Invariants

Nothing is lost. Whatever a stage removes can be had again: a reference
names a result the agent has seen, and winnow__more returns every item a
trimmed result left out, exactly once across its pages, in the original
format (re-encoded when the first view was). Trim pages the items
trimtree chose from (Result.Items, the ranges whose kept ones render as
trimtree's text) rather than finding them again; if they do not agree
with Total and Kept, or if the response cannot be held for winnow__more,
the text passes whole. Held
responses are bounded (Options.MaxStoreBytes, Options.MaxRefs) and the
least recently used go first; a ref that has gone is a tool error telling
the agent to repeat the original call.

Tool errors pass unchanged, as do images, audio and resources; text
content and structured content are shaped, and the upstream's result is
never modified (the returned result is a copy sharing the untouched
content). Structured content is what Claude Code and Codex give the
model, so it carries the savings: its strings that repeat a text content
are shaped with it, and, for a tool whose output schema was dropped or
absent, the whole value is one more text, kept JSON (structured.go, where
the output schema decision is described). Telemetry counts what the
model reads: the structured content, as JSON, when there is some.

A winnow__more page never counts more than Options.CallBudget tokens: an
item too large for a page alone is sent in parts that say so and, joined,
are the item.

A stage that fails or panics leaves the texts as they were before it; the
failure is logged (tool and stage, never text or argument values) and the
later stages still run.

State is per session (Call.Session, the downstream MCP session id),
bounded (Options.MaxSessions sessions, least recently used forgotten) and
safe for concurrent calls: session state is locked only to read or update
the cache, never while a stage works.

# Counting

Every decision counts tokens with Options.Counter, by default the o200k
estimator of package tokens, not the exact BPE: exact counting runs at a
few MB/s, so a 100 KiB response would cost 20 ms or more to count once,
and the stages count several times. The estimator is within a few percent
on texts of this size; budgets here are soft. Telemetry counts exactly,
on the telemetry writer's goroutine.

Counting is still the largest share of the time a large response takes,
so a turn remembers the counts of the long texts it has counted (the
upstream text is counted by Encode and again by trimtree, a trimmed view
by trimtree and again when it is encoded) and counts each once; a
counter's count depends on the text alone. BenchmarkAfter measures a
whole After against encoding/json's Valid and Compact on the same input,
with the estimator and with a counter that costs next to nothing.
*/
package pipeline
