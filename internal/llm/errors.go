package llm

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// An APIError is an HTTP answer other than success.
type APIError struct {
	Status     int
	Message    string        // the server's message, shortened
	RetryAfter time.Duration // from the Retry-After header; 0 when absent
}

// Error says the status and the server's message.
func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("HTTP %d %s", e.Status, http.StatusText(e.Status))
	}
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, http.StatusText(e.Status), e.Message)
}

// Temporary reports whether the same request may succeed later: timeouts, conflicts, rate
// limits, server errors and Anthropic's 529 (overloaded).
func (e *APIError) Temporary() bool {
	switch e.Status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests, 529:
		return true
	}
	return e.Status >= 500
}

// retryAfter reads a Retry-After header given in seconds (HTTP dates are rare from APIs and
// are treated as absent).
func retryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	return 0
}
