package llmproxy

import (
	"encoding/json"
	"net/http"
)

// healthPath is answered by the proxy itself, never forwarded.
const healthPath = "/healthz"

// Health is the body of a /healthz response.
type Health struct {
	OK        bool              `json:"ok"`
	Version   string            `json:"version"`
	Upstreams map[string]string `json:"upstreams"` // dialect → base URL, passwords redacted
	InFlight  int64             `json:"in_flight"` // requests being proxied
}

// health answers GET and HEAD /healthz. It says the proxy is up and where it forwards to;
// it does not call the upstreams, so it stays fast and free when they are slow or down.
func (p *Proxy) health(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: use GET", http.StatusMethodNotAllowed)
		return
	}
	data, err := json.Marshal(Health{OK: true, Version: p.version, Upstreams: p.Upstreams(), InFlight: p.inFlight.Load()})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(append(data, '\n'))
}
