package telescope

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// startRedis runs a redis-server of the test's own on a free loopback port, persisting
// nothing, stopped (by its pid) when the test ends, and returns its URL. Without
// redis-server the test is skipped, unless WINNOW_TEST_REDIS=1 says it must run.
func startRedis(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("WINNOW_TEST_REDIS") == "1" {
			t.Fatal("WINNOW_TEST_REDIS=1 but redis-server is not installed")
		}
		t.Skip("redis-server is not installed (apt-get install redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	ready := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(ready) {
			t.Fatalf("redis-server on %s did not start: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "redis://" + addr + "/0"
}

// TestSharedRedis: two engines with stores of their own on one Redis, as two processes
// (or machines) would be, reuse each other's nodes.
func TestSharedRedis(t *testing.T) {
	url := startRedis(t)
	root := fixture(t)
	e1, c1 := newEngine(t, root, openStore(t, url))
	first := build(t, e1, Request{Strategy: "counted"})
	if int(c1.total.Load()) != first.Stats.Units || first.Stats.StoreErrors != 0 {
		t.Fatalf("first: %d calls for %d units, %d store errors", c1.total.Load(), first.Stats.Units, first.Stats.StoreErrors)
	}
	e2, c2 := newEngine(t, root, openStore(t, url))
	second := build(t, e2, Request{Strategy: "counted"})
	if c2.total.Load() != 0 || second.Stats.HitRate != 1 || second.RootID != first.RootID {
		t.Errorf("second process: %d calls, hit rate %v", c2.total.Load(), second.Stats.HitRate)
	}
	d, err := e2.Drilldown(t.Context(), first.KeyMap["L1:shop/orders.py"])
	if err != nil || len(d.Source) != 35 {
		t.Errorf("drilldown through Redis: %v", err)
	}
}
