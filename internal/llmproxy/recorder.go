package llmproxy

import (
	"net/http"
	"time"
)

// A recorder is the client's ResponseWriter, noting the status, the bytes written and when
// the first byte went out. Unwrap lets http.ResponseController (which ReverseProxy uses to
// flush and to hijack for upgrades) reach the connection's own writer.
type recorder struct {
	http.ResponseWriter
	start     time.Time
	status    int
	bytes     int64
	firstByte time.Duration // since start; 0 until the first body byte
}

// WriteHeader records the first final status and passes every status on (1xx included).
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 && code >= 200 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// Write records the bytes written.
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.firstByte == 0 && len(b) > 0 {
		r.firstByte = time.Since(r.start)
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Flush sends buffered data to the client.
func (r *recorder) Flush() {
	http.NewResponseController(r.ResponseWriter).Flush()
}

// Unwrap returns the underlying ResponseWriter.
func (r *recorder) Unwrap() http.ResponseWriter {
	return r.ResponseWriter
}
