package gateway

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestServeHTTPCachesGet(t *testing.T) {
	calls := 0
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		io.WriteString(w, "hello")
	}))
	defer upstream.Close()

	srv, err := NewServer(&Config{Upstream: upstream.URL, CacheSize: 8, TTL: Duration(time.Minute)},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(srv)
	defer front.Close()

	for i, want := range []string{"MISS", "HIT"} {
		resp, err := http.Get(front.URL + "/greeting")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("X-Cache"); got != want {
			t.Errorf("request %d: X-Cache = %q, want %q", i, got, want)
		}
	}
	if calls != 1 {
		t.Errorf("upstream called %d times, want 1", calls)
	}
}
