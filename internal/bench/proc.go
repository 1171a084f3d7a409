package bench

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

// A procRun is what one child process cost and printed.
type procRun struct {
	wall   time.Duration
	cpu    time.Duration // user + system
	rssKB  int64         // peak resident set size; 0 where the OS does not say
	subKB  int64         // peak RSS of the processes it ran (git), when above its own; else 0
	stdout []byte
}

// runProc runs a program in dir and measures it. A failure carries the
// tail of the program's stderr.
func runProc(ctx context.Context, dir, prog string, args ...string) (procRun, error) {
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return procRun{}, fmt.Errorf("%s: %w", prog, err)
	}
	rss := watchRSS(cmd.Process.Pid)
	err := cmd.Wait()
	wall := time.Since(start)
	rssKB, subKB := rss.stop(cmd.ProcessState)
	if err != nil {
		return procRun{}, fmt.Errorf("%s %s: %w%s", prog, strings.Join(args, " "), err, tail(stderr.String()))
	}
	ps := cmd.ProcessState
	return procRun{
		wall:   wall,
		cpu:    ps.UserTime() + ps.SystemTime(),
		rssKB:  rssKB,
		subKB:  subKB,
		stdout: stdout.Bytes(),
	}, nil
}

// tail is the end of a program's error output, for an error message.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	const max = 2000
	if len(s) > max {
		s = "…" + s[len(s)-max:]
	}
	return ":\n" + s
}

// procStats summarise the runs of one program.
func procStats(runs []procRun) ProcStats {
	var wall, cpu []time.Duration
	var rss, sub []int64
	for _, r := range runs {
		wall = append(wall, r.wall)
		cpu = append(cpu, r.cpu)
		rss = append(rss, r.rssKB)
		sub = append(sub, r.subKB)
	}
	return ProcStats{Wall: measure.Summarize(wall), CPU: measure.Summarize(cpu), RSS: summarizeSizes(rss), SubRSS: summarizeSizes(sub)}
}
