package bench

import (
	"runtime"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

// Machine describes where a benchmark ran: numbers from a shared machine
// mean little without its load.
type Machine struct {
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	// LoadAvg is the 1, 5 and 15 minute load average from /proc/loadavg
	// at the start of the run, and LoadAvgEnd at its end; "" elsewhere.
	LoadAvg    string `json:"load_avg"`
	LoadAvgEnd string `json:"load_avg_end"`
}

func thisMachine() Machine {
	return Machine{
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		LoadAvg:    measure.LoadAvg(),
	}
}
