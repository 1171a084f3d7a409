package codex

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A ToolCall is one function call the scripted model makes, by the name the request's
// tools give it (for an MCP tool, the name Codex lists it under).
type ToolCall struct {
	// Namespace is the namespace the request lists the tool in: Codex 0.169 lists an MCP
	// server's tools as functions in a namespace mcp__<server>. Empty for a top-level
	// function.
	Namespace string
	Name      string
	Arguments map[string]any
}

// A ToolResult is the output Codex sent back for one scripted call: the
// function_call_output's output, as it came, the first time a request carried it.
type ToolResult struct {
	Step   int // 1-based
	Tool   string
	Output json.RawMessage // a string or a list of content parts
}

// Text returns the output's text: the string, or its parts' text one per line.
func (r ToolResult) Text() string { return text(r.Output) }

// call returns the function call of step, failing when the request does not offer the
// tool (the error lists what it offers).
func (s *Server) call(r *request, step int, c ToolCall) (*outItem, error) {
	if !r.hasFunction(c.Namespace, c.Name) {
		names := make([]string, len(r.tools))
		for i, t := range r.tools {
			names[i] = t.Type + ":" + t.Name
		}
		return nil, fmt.Errorf("step %d: the request offers no function %s in namespace %q, only %s", step, c.Name, c.Namespace, strings.Join(names, ", "))
	}
	args, err := json.Marshal(c.Arguments)
	if err != nil {
		return nil, fmt.Errorf("step %d: arguments of %s: %w", step, c.Name, err)
	}
	return &outItem{is: s.issue(typeFunctionCall, step), name: c.Name, ns: c.Namespace, args: string(args)}, nil
}

// hasFunction reports whether the request offers the function name, at the top level
// when ns is empty, else in the namespace ns.
func (r *request) hasFunction(ns, name string) bool {
	if ns == "" {
		return r.hasTool("function", name)
	}
	for _, t := range r.tools {
		if t.Type == "namespace" && t.Name == ns {
			return slices.ContainsFunc(t.Tools, func(f tool) bool { return f.Type == "function" && f.Name == name })
		}
	}
	return false
}

// namespaced adds the item's namespace to its JSON, when it has one.
func (o *outItem) namespaced(m obj) obj {
	if o.ns != "" {
		m["namespace"] = o.ns
	}
	return m
}

// noteOutput keeps the output of a scripted call. s.mu is held.
func (s *Server) noteOutput(step int, it *item) {
	if len(s.opts.Calls) == 0 || step > len(s.opts.Calls) {
		return
	}
	if slices.ContainsFunc(s.results, func(r ToolResult) bool { return r.Step == step }) {
		return
	}
	s.results = append(s.results, ToolResult{Step: step, Tool: s.opts.Calls[step-1].Name, Output: it.Output})
}

// ToolResults returns the outputs Codex sent back for the script's calls so far, by step.
func (s *Server) ToolResults() []ToolResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.results)
	slices.SortFunc(out, func(x, y ToolResult) int { return x.Step - y.Step })
	return out
}
