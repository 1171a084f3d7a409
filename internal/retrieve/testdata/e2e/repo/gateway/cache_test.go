package gateway

import (
	"testing"
	"time"
)

func TestCacheGetPut(t *testing.T) {
	c := NewCache(2)
	c.Put("a", &entry{status: 200, expires: time.Now().Add(time.Minute)})
	e, ok := c.Get("a")
	if !ok || e.status != 200 {
		t.Fatalf("Get(a) = %v, %v; want the entry", e, ok)
	}
}

func TestCacheExpired(t *testing.T) {
	c := NewCache(2)
	c.Put("a", &entry{status: 200, expires: time.Now().Add(-time.Second)})
	if _, ok := c.Get("a"); ok {
		t.Fatal("Get returned an expired entry")
	}
	if c.Len() != 0 {
		t.Fatalf("Len = %d after expiry, want 0", c.Len())
	}
}
