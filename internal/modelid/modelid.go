// Package modelid normalises the model ids that LLM API requests carry, so
// that tables keyed by a model (its thinking rules, its price) find it
// however a provider or client spells it. It knows no model itself.
package modelid

import "strings"

// Normalize strips what providers and clients add around a model id: a
// provider prefix ("anthropic/", "us.anthropic.", "openai/"), a context
// suffix ("[1m]"), a version or region suffix ("@20251001", "-v1:0"), an
// alias suffix ("-latest") and a snapshot date ("-20251101",
// "-2025-08-07"), and lowercases what is left:
// "us.anthropic.claude-opus-4-5-20251101-v1:0" is "claude-opus-4-5".
func Normalize(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	if i := strings.LastIndex(id, "anthropic."); i >= 0 {
		id = id[i+len("anthropic."):]
	}
	if i := strings.IndexAny(id, "[@:"); i >= 0 {
		id = id[:i]
	}
	id = strings.TrimSuffix(id, "-v1")
	id = strings.TrimSuffix(id, "-latest")
	if n := len(id); n > 9 && id[n-9] == '-' && digits(id[n-8:]) {
		id = id[:n-9] // -20251101
	}
	if n := len(id); n > 11 && id[n-11] == '-' && digits(id[n-10:n-6]) && id[n-6] == '-' && digits(id[n-5:n-3]) && id[n-3] == '-' && digits(id[n-2:]) {
		id = id[:n-11] // -2025-08-07
	}
	return id
}

func digits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
