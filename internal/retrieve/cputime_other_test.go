//go:build !unix

package retrieve

import "time"

// cpuTime is unknown here: benchmarks report 0.
func cpuTime() time.Duration { return 0 }
