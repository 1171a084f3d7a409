package store

import "testing"

// TestRedisFailsFast: a Redis that cannot be dialled is reported after one dial per try of a
// command, not go-redis's five dials 100 ms apart (1.7 s for `winnow store stats` against a
// stopped Redis, and as long for each lookup of a proxy whose cache went away).
func TestRedisFailsFast(t *testing.T) {
	s, err := openRedis("redis://127.0.0.1:1/0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.c.Close()
	if got := s.c.Options().DialerRetries; got != 1 {
		t.Errorf("DialerRetries = %d, want 1", got)
	}
}
