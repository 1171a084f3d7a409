package retrieve

import (
	"runtime/debug"
	"testing"
)

// TestTightenGC: builds collect at buildGOGC while any is in flight, a
// lower setting is kept, and the last to end restores the pace.
func TestTightenGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)

	first := tightenGC()
	second := tightenGC()
	if got := debug.SetGCPercent(buildGOGC); got != buildGOGC {
		t.Fatalf("GOGC during two builds = %d, want %d", got, buildGOGC)
	}
	first()
	if got := debug.SetGCPercent(buildGOGC); got != buildGOGC {
		t.Fatalf("GOGC with one build left = %d, want %d", got, buildGOGC)
	}
	second()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC after the builds = %d, want 100", got)
	}

	debug.SetGCPercent(buildGOGC / 2)
	restore := tightenGC()
	if got := debug.SetGCPercent(buildGOGC / 2); got != buildGOGC/2 {
		t.Fatalf("GOGC during a build under GOGC=%d = %d, want it kept", buildGOGC/2, got)
	}
	restore()
	if got := debug.SetGCPercent(100); got != buildGOGC/2 {
		t.Fatalf("GOGC after a build under GOGC=%d = %d, want it kept", buildGOGC/2, got)
	}
}
