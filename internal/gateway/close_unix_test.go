//go:build unix

package gateway

import (
	"errors"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/config"
)

func TestCloseStopsEveryChild(t *testing.T) {
	const terminate = 300 * time.Millisecond
	ups := []config.Upstream{
		stdioUpstream(t, "polite", nil),
		// Ignores its stdin closing and SIGTERM: only SIGKILL stops it.
		stdioUpstream(t, "stubborn", map[string]string{envStubborn: "1"}),
	}
	h := startGateway(t, ups, &Options{TerminateTimeout: terminate})
	down := h.connect(t, clientOptions{})
	pids := map[string]int{}
	for _, name := range []string{"polite", "stubborn"} {
		pid, err := strconv.Atoi(text(down.call(t, name+"__pid", map[string]any{})))
		if err != nil {
			t.Fatal(err)
		}
		pids[name] = pid
	}

	start := time.Now()
	if err := h.gw.Close(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	for name, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("%s (pid %d) still exists after Close: kill -0 = %v", name, pid, err)
		}
		if s := statusOf(h.gw, name); s.State != StateClosed || s.Tools != 0 {
			t.Errorf("%s status after Close = %+v, want closed without tools", name, s)
		}
	}
	if took < 2*terminate {
		t.Errorf("Close took %v: the stubborn child cannot have had its stdin closed and SIGTERM ignored first", took)
	}
	if tools := down.tools(t); len(tools) != 1 || tools["own_tool"] == nil {
		t.Errorf("after Close the client sees %v, want only the server's own tool", keys(tools))
	}
	if err := h.gw.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestConnectTimeout(t *testing.T) {
	// sleep never answers initialize; it ignores its stdin closing and dies
	// on SIGTERM. A TerminateTimeout of 2s (not less) keeps a loaded machine
	// from reaching SIGKILL first, which would change the reported exit.
	hung := config.Upstream{Name: "hung", Command: "sleep", Args: []string{"60"}}
	h := startGateway(t, []config.Upstream{hung}, &Options{
		ConnectTimeout:   400 * time.Millisecond,
		TerminateTimeout: 2 * time.Second,
		Backoff:          Backoff{Base: time.Minute},
	})
	s := h.waitStatus(t, "hung", func(s Status) bool { return s.State == StateRestarting })
	if !strings.Contains(s.LastError, "connect: no answer within 400ms") || !strings.Contains(s.LastError, "process exited: signal: terminated") {
		t.Errorf("LastError = %q, want the connect timeout and the stopped process", s.LastError)
	}
}
