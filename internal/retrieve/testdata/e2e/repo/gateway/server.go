// Package gateway is a caching reverse proxy: it forwards requests to one
// upstream API and answers repeated GETs from memory while they are fresh.
package gateway

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"
)

// Server forwards requests to its upstream and caches GET responses.
type Server struct {
	upstream *url.URL
	client   *http.Client
	cache    *Cache
	ttl      time.Duration
	log      *slog.Logger
}

// NewServer returns a Server for cfg.
func NewServer(cfg *Config, log *slog.Logger) (*Server, error) {
	u, err := url.Parse(cfg.Upstream)
	if err != nil {
		return nil, fmt.Errorf("upstream %q: %w", cfg.Upstream, err)
	}
	return &Server{
		upstream: u,
		client:   &http.Client{Timeout: 30 * time.Second},
		cache:    &Cache{max: cfg.CacheSize},
		ttl:      time.Duration(cfg.TTL),
		log:      log,
	}, nil
}

// ServeHTTP answers a GET from the cache when it can, and forwards
// everything else.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := cacheKey(r)
	if r.Method == http.MethodGet {
		if e, ok := s.cache.Get(key); ok {
			writeEntry(w, e, "HIT")
			return
		}
	}
	e, err := s.forward(r)
	if err != nil {
		s.log.Warn("upstream failed", "url", r.URL.String(), "err", err)
		http.Error(w, "bad gateway", http.StatusBadGateway)
		return
	}
	if r.Method == http.MethodGet && e.status == http.StatusOK {
		e.expires = time.Now().Add(s.ttl)
		s.cache.Put(key, e)
	}
	writeEntry(w, e, "MISS")
}

// forward sends r to the upstream and reads the whole response.
func (s *Server) forward(r *http.Request) (*entry, error) {
	target := s.upstream.ResolveReference(&url.URL{Path: r.URL.Path, RawQuery: r.URL.RawQuery})
	req, err := http.NewRequestWithContext(r.Context(), r.Method, target.String(), r.Body)
	if err != nil {
		return nil, err
	}
	req.Header = r.Header.Clone()
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &entry{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// cacheKey is the method and the full URL of r.
func cacheKey(r *http.Request) string {
	return r.Method + " " + r.URL.RequestURI()
}

// writeEntry writes a cached or forwarded response, with an X-Cache
// header saying which.
func writeEntry(w http.ResponseWriter, e *entry, cache string) {
	for name, values := range e.header {
		for _, v := range values {
			w.Header().Add(name, v)
		}
	}
	w.Header().Set("X-Cache", cache)
	w.WriteHeader(e.status)
	io.Copy(w, bytes.NewReader(e.body))
}
