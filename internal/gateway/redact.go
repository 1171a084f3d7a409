package gateway

import (
	"context"
	"log/slog"
	"slices"
	"strings"
)

// minSecretLen is the length below which a value is not redacted: replacing every "1" or
// "on" in a message would garble it, and values that short are not credentials.
const minSecretLen = 4

// redacted replaces a secret in logs, errors and status.
const redacted = "[REDACTED]"

// A redactor removes an upstream's secrets (the bearer token, values of environment
// variables its configuration references, the query values of its URL) from text.
type redactor struct {
	r *strings.Replacer // nil when there is nothing to redact
}

func newRedactor(secrets []string) *redactor {
	var s []string
	for _, v := range secrets {
		if len(v) >= minSecretLen && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	// Longest first, so that a secret containing another is replaced whole.
	slices.SortFunc(s, func(a, b string) int { return len(b) - len(a) })
	if len(s) == 0 {
		return &redactor{}
	}
	pairs := make([]string, 0, 2*len(s))
	for _, v := range s {
		pairs = append(pairs, v, redacted)
	}
	return &redactor{r: strings.NewReplacer(pairs...)}
}

// String returns s with every secret replaced.
func (r *redactor) String(s string) string {
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}

// redactHandler is a slog.Handler that redacts the message and every attribute of a record
// before passing it on, so that nothing an upstream's code or the SDK logs leaks a secret.
type redactHandler struct {
	next slog.Handler
	r    *redactor
}

func (h *redactHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return &redactHandler{next: h.next.WithAttrs(clean), r: h.r}
}

func (h *redactHandler) WithGroup(name string) slog.Handler {
	return &redactHandler{next: h.next.WithGroup(name), r: h.r}
}

// attr redacts one attribute: strings, errors and any other value that renders as text.
func (h *redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, ga := range g {
			clean[i] = h.attr(ga)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindInt64, slog.KindUint64, slog.KindFloat64, slog.KindBool, slog.KindDuration, slog.KindTime:
		return slog.Attr{Key: a.Key, Value: v}
	default:
		return slog.String(a.Key, h.r.String(v.String()))
	}
}
