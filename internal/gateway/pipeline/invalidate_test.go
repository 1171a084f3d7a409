package pipeline

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIsMutating(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"edit_file", true},
		{"write_file", true},
		{"move_file", true},
		{"create_directory", true},
		{"issue_write", true},
		{"create_or_update_file", true},
		{"get_or_create_label", true},
		{"add_issue_comment", true},
		{"merge_pull_request", true},
		{"notion-update-page", true},
		{"API-patch-page", true},
		{"updateIssue", true},
		{"setLabels", true},
		{"git_commit", true},
		{"mark_all_notifications_read", true},
		{"get_file_contents", false},
		{"get_commit", false},
		{"list_merge_requests", false},
		{"get_workflow_run", false},
		{"search_code", false},
		{"get_settings", false},
		{"read_multiple_files", false},
		{"directory_tree", false},
		{"git_status", false},
		{"", false},
		{"or", false},
	}
	for _, tt := range tests {
		if got := isMutating(tt.name); got != tt.want {
			t.Errorf("isMutating(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPathArgs(t *testing.T) {
	tests := []struct {
		args string
		want []string
	}{
		{`{"path": "src/a.go"}`, []string{"src/a.go"}},
		{`{"path": "./src//a.go", "content": "x"}`, []string{"src/a.go"}},
		{`{"paths": ["a", "b/../c"]}`, []string{"a", "c"}},
		{`{"source": "file:///repo/x", "destination": "/repo/y"}`, []string{"/repo/x", "/repo/y"}},
		{`{"Path": "C:\\repo\\x"}`, []string{"C:/repo/x"}},
		{`{"number": 12}`, nil},
		{`{"path": 12}`, nil},
		{`not json`, nil},
		{``, nil},
	}
	for _, tt := range tests {
		got := pathArgs(json.RawMessage(tt.args))
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("pathArgs(%s) mismatch (-want +got):\n%s", tt.args, diff)
		}
	}
}

func TestRelatedPaths(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"src/a.go", "src/a.go", true},
		{"src", "src/a.go", true},
		{"src/a.go", "src", true},
		{"src/a.go", "src/b.go", false},
		{"src/a", "src/ab", false},
		{".", "src/a.go", true},
		{"/repo/a", "a", true}, // absolute against relative: may be the same file
		{"/", "/x", true},
		{"/repo/a", "/repo/b", false},
	}
	for _, tt := range tests {
		if got := related(tt.a, tt.b); got != tt.want {
			t.Errorf("related(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
