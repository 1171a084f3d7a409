package retrieve

import "testing"

func TestIsHook(t *testing.T) {
	tests := []struct {
		name           string
		caller, callee string
		want           bool
	}{
		{"eval hook", "as_set", "_eval_as_set", true},
		{"private half", "sum_of_weights", "_sum_of_weights", true},
		{"caller private", "_as_set", "_eval_as_set", true},
		{"one-word name", "subs", "_eval_subs", false},
		{"other operation", "as_set", "_eval_as_relational", false},
		{"same name", "as_set", "as_set", false},
		{"part of a word", "as_set", "has_settings", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := isHook(tc.caller, tc.callee); got != tc.want {
				t.Errorf("isHook(%q, %q) = %v, want %v", tc.caller, tc.callee, got, tc.want)
			}
		})
	}
}
