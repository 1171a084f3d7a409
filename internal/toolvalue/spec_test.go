package toolvalue

import "testing"

func TestMatchStar(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"Read", "Read", true},
		{"Read", "ReadX", false},
		{"*", "anything__at_all", true},
		{"*", "", true},
		{"*__read_text_file", "fs__read_text_file", true},
		{"*__read_text_file", "mcp__fs__read_text_file", true},
		{"*__read_text_file", "read_text_file", false},
		{"*__read_text_file", "fs__read_text_files", false},
		{"github__*", "github__get_issue", true},
		{"github__*", "gitlab__get_issue", false},
		{"a*b*c", "aXXbYYbZc", true},
		{"a*b*c", "aXXbYYbZ", false},
		{"*_url", "avatar_url", true},
		{"**", "x", true},
		{"a[1]?*", "a[1]?x", true},
		{"a[1]?*", "a1x", false},
		{"x/*", "x/y", true},
	}
	for _, tt := range tests {
		if got := matchStar(tt.pattern, tt.name); got != tt.want {
			t.Errorf("matchStar(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}
