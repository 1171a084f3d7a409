package retrieve

import (
	"testing"

	"github.com/winnowhq/winnow/internal/intent"
)

func TestWritesTests(t *testing.T) {
	tests := []struct {
		name string
		in   intent.Result
		want bool
	}{
		{"asked for", intent.Result{Kind: intent.TestWriting, Confidence: 0.75}, true},
		{"at the bound", intent.Result{Kind: intent.TestWriting, Confidence: DefaultParams.TestWriteConfidence}, true},
		// A bug report of a test runner: "caplog fixture doesn't restore
		// log level after test", with its template and session, reads
		// as test writing at 0.22.
		{"weakly", intent.Result{Kind: intent.TestWriting, Confidence: 0.22}, false},
		{"a fix", intent.Result{Kind: intent.BugFix, Confidence: 0.9}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &ranker{q: &parsed{intent: tt.in}, par: &DefaultParams}
			if got := r.writesTests(); got != tt.want {
				t.Errorf("writesTests for %v %.2f = %v, want %v", tt.in.Kind, tt.in.Confidence, got, tt.want)
			}
		})
	}
}
