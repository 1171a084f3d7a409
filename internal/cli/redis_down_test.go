package cli

import (
	"bytes"
	"fmt"
	"net"
	"strings"
	"testing"
)

// TestRedisDownSaysSoOnce runs winnow as a child process, so that the test sees all its
// stderr, go-redis's own writes to os.Stderr included, with the user's store a Redis that
// nothing listens for. winnow telescope build succeeds and says so once, in its own words:
// which Redis, why, and what it costs; winnow store stats fails with one error line. No
// line is go-redis's own ("redis: 2026/… pool.go:…: failed to dial after 5 attempts").
func TestRedisDownSaysSoOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	dir, _ := telescopeRepo(t)
	storeConfig(t, fmt.Sprintf("url = \"redis://%s/0\"\n", addr))

	tests := []struct {
		args []string
		ok   bool
		want string // the one line about the store
	}{
		{[]string{"telescope", "build", dir}, true,
			`level=WARN msg="store: redis at ` + addr + ` unreachable (dial tcp ` + addr + `: connect: connection refused); ` +
				`continuing without the shared cache: telescope nodes and compaction results are computed again instead of read from it, ` +
				`and not shared with other processes; trying again every 5s"`},
		{[]string{"store", "stats"}, false,
			"winnow: redis store redis://" + addr + "/0: stats: dial tcp " + addr + ": connect: connection refused"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:2], " "), func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := winnow(tt.args...)
			cmd.Stderr = &stderr
			err := cmd.Run()
			if (err == nil) != tt.ok {
				t.Fatalf("winnow %s: %v\n%s", strings.Join(tt.args, " "), err, stderr.String())
			}
			var about []string
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.Contains(line, "redis") || strings.Contains(line, addr) {
					about = append(about, line)
				}
			}
			if len(about) != 1 || !strings.HasSuffix(about[0], tt.want) {
				t.Errorf("stderr lines about the store:\n%s\nwant one, ending in\n%s", strings.Join(about, "\n"), tt.want)
			}
		})
	}
}
