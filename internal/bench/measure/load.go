package measure

import (
	"os"
	"strings"
)

// LoadAvg returns the 1, 5 and 15 minute load averages, or "" where there
// is no /proc/loadavg. Benchmarks print it: on a shared machine, a ratio
// measured under load means more than an absolute time.
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
