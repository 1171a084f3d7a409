//go:build !linux

package measure

import "time"

// ThreadCPU cannot read a thread's CPU time on this system.
func ThreadCPU() (time.Duration, bool) { return 0, false }
