// Package enrich is `winnow bench enrich`: it replays recorded agent runs call by call
// through the planner (package planner) and measures how well its inline and prefetch
// decisions match what the agents did next, and what enrichment would have cost under a
// prompt cache. It does not plan calls (package planner does) or run them (the gateway
// does); it mirrors what the gateway does with the planner's decisions.
package enrich
