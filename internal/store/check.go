package store

import (
	"fmt"
	"time"
)

// checkKey rejects the keys no backend stores.
func checkKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("%w: empty key", ErrInvalid)
	case len(key) > MaxKeyBytes:
		return fmt.Errorf("%w: key of %d bytes is longer than %d", ErrInvalid, len(key), MaxKeyBytes)
	}
	return nil
}

// checkPut rejects a Put no backend stores, and returns the TTL to store it with: ttl, or
// def for 0, rounded up to a whole millisecond (both backends count in milliseconds).
func checkPut(key string, value []byte, ttl, def time.Duration) (time.Duration, error) {
	if err := checkKey(key); err != nil {
		return 0, err
	}
	if len(value) > MaxValueBytes {
		return 0, fmt.Errorf("%w: value of %d bytes under %q is larger than %d", ErrInvalid, len(value), key, MaxValueBytes)
	}
	switch {
	case ttl == 0:
		ttl = def
	case ttl < 0:
		return 0, fmt.Errorf("%w: negative TTL %v for %q", ErrInvalid, ttl, key)
	case ttl > MaxTTL:
		return 0, fmt.Errorf("%w: TTL %v for %q is longer than %v", ErrInvalid, ttl, key, MaxTTL)
	}
	return (ttl + time.Millisecond - 1).Truncate(time.Millisecond), nil
}
