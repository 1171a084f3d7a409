// Package planner decides which tool calls to make before an agent asks for them. After
// every call it proposes the calls the agent is likely to make next, from the follow-up
// edges of the tools' value models (package toolvalue), and decides each: inline (run it
// now and append its result to the current one, saving the agent a model turn), prefetch
// (run it in the background so that a later identical call is answered at once) or
// declined, always with a reason.
//
// It does not run calls (the gateway does), read configuration or models (package
// toolvalue and its Registry do) or measure itself (package bench/enrich replays real
// agent runs through it).
package planner
