package llm

import (
	"context"
	"sync"
	"time"
)

// A limiter spaces calls evenly at a rate per minute: a call may start no sooner than
// one interval after the previous one was allowed to.
type limiter struct {
	every time.Duration // 0: no limit
	mu    sync.Mutex
	next  time.Time
}

func newLimiter(perMinute float64) *limiter {
	if perMinute <= 0 {
		return &limiter{}
	}
	return &limiter{every: time.Duration(float64(time.Minute) / perMinute)}
}

// wait blocks until the caller may start a call, or ctx ends.
func (l *limiter) wait(ctx context.Context) error {
	if l.every == 0 {
		return ctx.Err()
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.every)
	l.mu.Unlock()
	return sleep(ctx, time.Until(at))
}
