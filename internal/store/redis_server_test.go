package store

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// envTestRedis set to 1 makes a missing redis-server a test failure instead of a skip; .ci/run
// sets it after installing the package.
const envTestRedis = "WINNOW_TEST_REDIS"

// testDatabases is how many Redis databases a test server has: each test takes its own.
const testDatabases = 1000

// A redisServer is a redis-server process of the tests, on a loopback port, persisting
// nothing.
type redisServer struct {
	cmd    *exec.Cmd
	port   int
	dir    string
	exited chan struct{} // closed when the process has exited
	nextDB atomic.Int32
}

// requireRedis skips the test when redis-server is not installed, or fails it when
// WINNOW_TEST_REDIS=1 says it must be.
func requireRedis(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("redis-server"); err == nil {
		return
	}
	if os.Getenv(envTestRedis) == "1" {
		tb.Fatalf("internal/store: %s=1 but redis-server is not installed (apt-get install redis-server)", envTestRedis)
	}
	tb.Skipf("internal/store: redis-server is not installed; to run the Redis tests: apt-get install redis-server (or run .ci/run), and set %s=1 to make its absence a failure", envTestRedis)
}

// shared is the redis-server most tests share, each in a database of its own; TestMain stops
// it.
var shared struct {
	once sync.Once
	srv  *redisServer
	err  error
}

// redisURL returns the URL of a fresh, empty database on the shared test server.
func redisURL(tb testing.TB) string {
	tb.Helper()
	requireRedis(tb)
	shared.once.Do(func() { shared.srv, shared.err = startRedisServer(0) })
	if shared.err != nil {
		tb.Fatalf("internal/store: start redis-server: %v", shared.err)
	}
	return shared.srv.newDatabase(tb)
}

// stopShared stops the shared server, if a test started it.
func stopShared() {
	if shared.srv != nil {
		shared.srv.stop()
	}
}

// newDatabase returns the URL of a database no other test uses.
func (r *redisServer) newDatabase(tb testing.TB) string {
	tb.Helper()
	db := r.nextDB.Add(1)
	if db >= testDatabases {
		tb.Fatalf("the test redis-server has only %d databases", testDatabases)
	}
	return fmt.Sprintf("redis://127.0.0.1:%d/%d", r.port, db)
}

// privateRedis starts a redis-server for one test, which may stop it; it is stopped at the
// end of the test in any case.
func privateRedis(t *testing.T, port int) *redisServer {
	t.Helper()
	requireRedis(t)
	r, err := startRedisServer(port)
	if err != nil {
		t.Fatalf("internal/store: start redis-server: %v", err)
	}
	t.Cleanup(r.stop)
	return r
}

// startRedisServer starts redis-server on port, or on a free loopback port if port is 0, and
// returns once it accepts connections.
func startRedisServer(port int) (*redisServer, error) {
	var err error
	for range 3 { // a free port can be taken between finding it and binding it
		p := port
		if p == 0 {
			if p, err = freePort(); err != nil {
				return nil, err
			}
		}
		var r *redisServer
		if r, err = launchRedis(p); err == nil || port != 0 {
			return r, err
		}
	}
	return nil, err
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// launchRedis runs redis-server on port and waits for its log line saying it is ready.
func launchRedis(port int) (*redisServer, error) {
	dir, err := os.MkdirTemp("", "winnow-redis-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("redis-server",
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no",
		"--databases", strconv.Itoa(testDatabases),
		"--dir", dir, "--logfile", "")
	out, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	r := &redisServer{cmd: cmd, port: port, dir: dir, exited: make(chan struct{})}
	ready := make(chan struct{})
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(out)
		signalled := false
		for sc.Scan() {
			if !signalled {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "Ready to accept connections") {
					signalled = true
					close(ready)
				}
			}
		}
		io.Copy(io.Discard, out)
		cmd.Wait()
		close(r.exited)
	}()
	select {
	case <-ready:
		return r, nil
	case <-r.exited:
		os.RemoveAll(dir)
		return nil, fmt.Errorf("redis-server on port %d exited before it was ready:\n%s", port, log.String())
	case <-time.After(20 * time.Second):
		r.stop()
		return nil, errors.New("redis-server did not get ready in 20s")
	}
}

// stop kills the server by its PID and waits for it to exit.
func (r *redisServer) stop() {
	r.cmd.Process.Kill()
	<-r.exited
	os.RemoveAll(r.dir)
}
