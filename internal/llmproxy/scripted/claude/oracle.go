package claude

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// A Violation is one broken rule of the Messages API in a request. The fake answers such a
// request with a 400 invalid_request_error carrying the first violation's message, as the
// API does, and records them all.
type Violation struct {
	Request int    `json:"request"` // sequence number of the request, from 1
	Rule    string `json:"rule"`    // see the rules in the package documentation
	Path    string `json:"path"`    // where, as the API names it: messages.3.content.0
	Message string `json:"message"`
}

func (v Violation) String() string {
	return fmt.Sprintf("request %d: %s: %s: %s", v.Request, v.Rule, v.Path, v.Message)
}

// The rules the oracle checks.
const (
	ruleShape      = "shape"        // messages present, first one a user message, known roles
	ruleEmpty      = "empty"        // every message has content, no text block is blank
	rulePairing    = "tool-pairing" // every tool_use answered first in the next user turn, no orphan results
	ruleBeta       = "beta-header"  // context_management needs its anthropic-beta
	ruleSignature  = "signature"    // every thinking block carries a signature the fake issued, text unchanged
	ruleToolLoop   = "tool-loop"    // in an open tool loop, the latest assistant message's thinking is all there, in order
	rulePrefix     = "prefix"       // preserved thinking: nothing before a returned block changed
	ruleThinkChain = "thinking-order"
)

// contextManagementBeta is the anthropic-beta value context_management needs.
const contextManagementBeta = "context-management-2025-06-27"

// check returns the rules req breaks, for a model of family fam, given what the fake
// issued; ph hashes req's prefixes.
func check(req *request, header http.Header, fam family, l *ledger, ph *prefixHasher) []Violation {
	var vs []Violation
	add := func(rule, path, format string, args ...any) {
		vs = append(vs, Violation{Rule: rule, Path: path, Message: fmt.Sprintf(format, args...)})
	}
	if req.ContextManagement != nil && !hasBeta(header, contextManagementBeta) {
		add(ruleBeta, "context_management", "context_management: Extra inputs are not permitted (send anthropic-beta: %s)", contextManagementBeta)
	}
	checkShape(req, add)
	checkPairing(req, add)
	checkThinking(req, fam, l, ph, add)
	return vs
}

type addFunc func(rule, path, format string, args ...any)

func hasBeta(h http.Header, beta string) bool {
	for _, v := range h.Values("Anthropic-Beta") {
		for _, b := range strings.Split(v, ",") {
			if strings.TrimSpace(b) == beta {
				return true
			}
		}
	}
	return false
}

func checkShape(req *request, add addFunc) {
	if len(req.Messages) == 0 {
		add(ruleShape, "messages", "messages: at least one message is required")
		return
	}
	if req.Messages[0].Role != "user" {
		add(ruleShape, "messages.0.role", "the first message must use the user role, not %q", req.Messages[0].Role)
	}
	for i, m := range req.Messages {
		path := fmt.Sprintf("messages.%d", i)
		switch m.Role {
		case "user", "assistant", "system":
		default:
			add(ruleShape, path+".role", "unknown role %q", m.Role)
		}
		if len(m.Blocks) == 0 {
			add(ruleEmpty, path, "all messages must have non-empty content")
		}
		for j, b := range m.Blocks {
			if b.Type == "text" && strings.TrimSpace(b.Text) == "" {
				add(ruleEmpty, fmt.Sprintf("%s.content.%d.text", path, j), "text content blocks must contain non-whitespace text")
			}
			if isThinking(b.Type) && m.Role != "assistant" {
				add(ruleShape, fmt.Sprintf("%s.content.%d", path, j), "%s blocks may only appear in assistant messages", b.Type)
			}
		}
	}
}

// checkPairing: every tool_use of an assistant message is answered by a tool_result in the
// next user message (system messages in between are not turns), and those results come
// first in it; every tool_result answers a tool_use of the assistant message before it;
// tool_use ids are unique.
func checkPairing(req *request, add addFunc) {
	seen := make(map[string]bool)
	var open []string // tool_use ids of the previous assistant message
	openAt := -1
	for i, m := range req.Messages {
		path := fmt.Sprintf("messages.%d", i)
		switch m.Role {
		case "system":
			continue
		case "assistant":
			if len(open) > 0 {
				add(rulePairing, fmt.Sprintf("messages.%d", openAt), "tool_use ids were found without tool_result blocks immediately after: %s", strings.Join(open, ", "))
			}
			open, openAt = nil, i
			for j, b := range m.Blocks {
				if b.Type == "tool_result" {
					add(rulePairing, fmt.Sprintf("%s.content.%d", path, j), "tool_result blocks may only appear in user messages")
				}
				if b.Type != "tool_use" {
					continue
				}
				if seen[b.ID] {
					add(rulePairing, fmt.Sprintf("%s.content.%d.id", path, j), "tool_use ids must be unique: %s", b.ID)
				}
				seen[b.ID] = true
				open = append(open, b.ID)
			}
		case "user":
			leading := true
			for j, b := range m.Blocks {
				if b.Type != "tool_result" {
					leading = false
					continue
				}
				bp := fmt.Sprintf("%s.content.%d", path, j)
				if !leading {
					add(rulePairing, bp, "tool_result blocks must come before any other content in a user message")
				}
				k := slices.Index(open, b.ToolUseID)
				if k < 0 {
					add(rulePairing, bp, "unexpected tool_use_id found in tool_result blocks: %s. Each tool_result block must have a corresponding tool_use block in the previous message.", b.ToolUseID)
					continue
				}
				open = slices.Delete(open, k, k+1)
			}
			if len(open) > 0 {
				add(rulePairing, fmt.Sprintf("messages.%d", openAt), "tool_use ids were found without tool_result blocks immediately after: %s", strings.Join(open, ", "))
			}
			open = nil
		}
	}
	// A tool_use left open by the last message is a request for the client, not an error
	// (the API refuses it only as a prefill); nothing to check.
}

// checkThinking checks every thinking and redacted_thinking block against the ledger, the
// open tool loop's latest assistant message against what was issued for it, and, for
// preserved-thinking models, each block's prefix and order.
func checkThinking(req *request, fam family, l *ledger, ph *prefixHasher, add addFunc) {
	prev := ""            // signature of the last kept thinking block
	prefixBroken := false // after a failed prefix or order check every later block fails too
	for i, m := range req.Messages {
		for j, b := range m.Blocks {
			if !isThinking(b.Type) {
				continue
			}
			path := fmt.Sprintf("messages.%d.content.%d", i, j)
			sig := b.Signature
			if b.Type == "redacted_thinking" {
				sig = b.Data
			}
			t, ok := l.lookupThinking(sig)
			switch {
			case !ok:
				add(ruleSignature, path, "Invalid `signature` in `%s` block", b.Type)
				prev = sig
				continue
			case b.Type == "thinking" && b.Thinking != t.sent:
				add(ruleSignature, path+".thinking", "`thinking` blocks cannot be modified: the text differs from what the model returned")
			}
			if fam.rule == preserved && !prefixBroken {
				if t.prefix != ph.at(i, j) {
					add(rulePrefix, path, "Invalid `signature` in `%s` block. The block is bound to a different conversation: the system prompt, tools or an earlier message changed since it was produced", b.Type)
					prefixBroken = true
				} else if prev != "" && t.pred != prev {
					add(ruleThinkChain, path, "Invalid `signature` in `%s` block: a thinking block before it was left out, moved or put back", b.Type)
					prefixBroken = true
				}
			}
			prev = sig
		}
	}
	checkToolLoop(req, l, add)
}

// checkToolLoop: when the last message (system messages aside) holds only tool results,
// the tool loop is open and
// the latest assistant message must carry every thinking block of the response that made
// its tool calls, unmodified and in order.
func checkToolLoop(req *request, l *ledger, add addFunc) {
	last := lastTurn(req.Messages, len(req.Messages))
	if last < 0 || !onlyToolResults(req.Messages[last]) {
		return
	}
	ai := lastTurn(req.Messages, last)
	if ai < 0 || req.Messages[ai].Role != "assistant" {
		return // a pairing violation, reported there
	}
	m := req.Messages[ai]
	var want []string
	for _, b := range m.Blocks {
		if u, ok := l.lookupToolUse(b.ID); b.Type == "tool_use" && ok {
			want = u.signatures
			break
		}
	}
	var got []string
	for _, b := range m.Blocks {
		switch b.Type {
		case "thinking":
			got = append(got, b.Signature)
		case "redacted_thinking":
			got = append(got, b.Data)
		}
	}
	if want != nil && !slices.Equal(want, got) {
		add(ruleToolLoop, fmt.Sprintf("messages.%d.content", ai), "`thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified: %d sent back, %d returned by the model", len(got), len(want))
	}
}

// lastTurn returns the index of the last message before end that is not a system
// message, or -1.
func lastTurn(ms []message, end int) int {
	i := end - 1
	for i >= 0 && ms[i].Role == "system" {
		i--
	}
	return i
}

// onlyToolResults reports whether m is a user message holding tool results and nothing else.
func onlyToolResults(m message) bool {
	if m.Role != "user" || len(m.Blocks) == 0 {
		return false
	}
	for _, b := range m.Blocks {
		if b.Type != "tool_result" {
			return false
		}
	}
	return true
}
