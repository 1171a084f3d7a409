package gateway

import (
	"fmt"
	"time"
)

// State is where an upstream is in its life.
type State string

// States of an upstream.
const (
	// StateConnecting: the first connection is being made; the upstream has no tools yet.
	StateConnecting State = "connecting"
	// StateReady: connected; its tools are re-exported and calls go through.
	StateReady State = "ready"
	// StateRestarting: the upstream died or could not connect and is being restarted with
	// backoff; its tools, if it had any, answer with a tool error saying so.
	StateRestarting State = "restarting"
	// StateFailed: the upstream cannot start (its command does not exist, a variable its
	// configuration needs is not set) and is not retried; it has no tools.
	StateFailed State = "failed"
	// StateDisabled: the upstream's entry says disabled = true.
	StateDisabled State = "disabled"
	// StateClosed: the gateway was closed.
	StateClosed State = "closed"
)

// Status is a snapshot of one upstream, for `winnow mcp` to report. It never contains
// secrets: errors are redacted.
type Status struct {
	Name      string `json:"name"`      // the upstream's name in the configuration
	Prefix    string `json:"prefix"`    // the prefix of its re-exported tools
	Transport string `json:"transport"` // "stdio" or "http"
	State     State  `json:"state"`
	// Tools is the number of the upstream's tools re-exported now.
	Tools int `json:"tools"`
	// Protocol is the MCP protocol version of the current session, if any.
	Protocol string `json:"protocol,omitempty"`
	// Attempt counts the consecutive failed connections or deaths (restarting only).
	Attempt int `json:"attempt,omitempty"`
	// NextRetry is when the next connection attempt starts (restarting only; zero while an
	// attempt is under way).
	NextRetry time.Time `json:"next_retry,omitzero"`
	// LastError says why the upstream is not ready, or why it last died.
	LastError string `json:"last_error,omitempty"`
}

// String formats s on one line, for logs and terminals.
func (s Status) String() string {
	out := fmt.Sprintf("%s (%s, prefix %s): %s", s.Name, s.Transport, s.Prefix, s.State)
	switch s.State {
	case StateReady:
		out += fmt.Sprintf(", %d tools", s.Tools)
	case StateRestarting:
		out += fmt.Sprintf(", attempt %d", s.Attempt)
	}
	if s.LastError != "" && s.State != StateReady {
		out += ": " + s.LastError
	}
	return out
}

// unavailable returns the tool error text for a call to one of the upstream's tools while it
// is not ready, as of now.
func (s Status) unavailable(now time.Time) string {
	switch s.State {
	case StateRestarting:
		next := "connecting now"
		if wait := s.NextRetry.Sub(now); wait > 0 {
			next = "next in " + roundDuration(wait).String()
		}
		return fmt.Sprintf("upstream %s is restarting (attempt %d, %s): %s", s.Name, s.Attempt, next, s.LastError)
	case StateFailed:
		return fmt.Sprintf("upstream %s is down and will not be restarted: %s", s.Name, s.LastError)
	case StateClosed:
		return fmt.Sprintf("upstream %s is shut down", s.Name)
	default:
		return fmt.Sprintf("upstream %s is %s; try again shortly", s.Name, s.State)
	}
}

// roundDuration rounds d for people: to 100ms below a minute, to the second above.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Minute {
		return max(d.Round(100*time.Millisecond), 100*time.Millisecond)
	}
	return d.Round(time.Second)
}
