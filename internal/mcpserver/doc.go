// Package mcpserver provides winnow's own MCP tools and the MCP server that
// serves them: context (a token-budgeted context for a task), find_symbol
// (definitions by name, with their source on request), outline (the
// skeleton of a file or directory) and references (who uses a name).
//
// Each tool lives in its own file, with its description for the model
// embedded from tools/<name>.md. Answers are plain text written for an LLM
// to read: every line says where a thing is (path:line), and every answer
// is capped at Options.MaxOutputTokens, with a last line saying what was
// cut and how to ask for the rest. A failure the agent can act on (a bad
// argument, an unknown name, a path outside the repository) comes back as
// a tool result with IsError set and a message saying what to do; only
// protocol failures (an unknown tool, a broken connection) are protocol
// errors.
//
// # Freshness
//
// A long-running server answers from an index the user keeps editing under
// it. While Watch runs (`winnow mcp` starts it), a file watcher
// (index.Watch) indexes changes as they happen, and before a tool answers
// it asks the watcher to index what changed so far: nothing, usually, so
// it costs no stat of the tree, and an edit made just before the call is
// in its answer. Without a watcher (Watch not running, or a tree with more
// directories than the system lets it watch), the index is brought up to
// date with index.Update, at most once per Options.RefreshInterval: an
// update that finds nothing changed stats the whole tree (~30 ms on
// sympy). After every update the engine loads the new corpus and writes
// the corpus file (package retrieve), so a call never waits for it and a
// `winnow context` process opens it. Concurrent calls wait for one update
// instead of starting their own, and give up waiting when their request is
// cancelled. An update that fails does not fail the call: the answer comes
// from the last good index, with a note. Refresh updates at once: `winnow
// mcp` builds a new index with it while the client connects, so that a
// slow first indexing never delays the handshake, and calls made meanwhile
// wait for it.
//
// # Extension
//
// The gateway (package gateway) adds the tools of upstream MCP servers to
// the same server: MCP returns the underlying *mcp.Server, and
// Options.PostProcess, when set, sees the result of every tools/call,
// winnow's own tools and added ones alike, before it goes to the client.
// A handler that panics yields a tool error, never a dead server.
//
// The package does not index (package index does), rank (package
// retrieve) or proxy other servers (package gateway). It never writes to
// stdout: in stdio mode stdout belongs to the protocol.
package mcpserver
