package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// commandTransport runs an upstream's command and speaks MCP with it over the command's
// stdin and stdout. It differs from mcp.CommandTransport in three ways: messages may be
// larger than the SDK's 16 MiB line limit (up to maxMessage bytes); the command runs in its
// own process group, so that stopping it also stops what it started (npx starts node); and
// the command's stderr is logged and its last lines kept, to explain why it died.
//
// One commandTransport is used for one connection.
type commandTransport struct {
	path       string
	args       []string
	env        []string
	maxMessage int
	terminate  time.Duration // how long the command gets to exit, after stdin closes and after SIGTERM
	stderr     *stderrTail

	mu   sync.Mutex
	proc *process
}

func (t *commandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := exec.Command(t.path, t.args...)
	cmd.Env = t.env
	cmd.Stderr = t.stderr
	cmd.WaitDelay = t.terminate // do not wait forever for a grandchild holding stderr open
	setProcessGroup(cmd)
	// Our own pipe for stdout, not cmd.StdoutPipe: Wait closes that one as soon as the
	// command exits, which would lose the messages it wrote last.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t.path, err)
	}
	cmd.Stdout = w
	stdin, err := cmd.StdinPipe()
	if err != nil {
		stdout.Close()
		w.Close()
		return nil, fmt.Errorf("start %s: %w", t.path, err)
	}
	err = cmd.Start()
	w.Close() // the child has its copy
	if err != nil {
		stdout.Close()
		err = fmt.Errorf("start %s: %w", t.path, err)
		if isMissingCommand(err) {
			return nil, &permanentError{err}
		}
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, terminate: t.terminate, exited: make(chan struct{})}
	go p.wait()
	t.mu.Lock()
	t.proc = p
	t.mu.Unlock()
	conn := &mcp.IOTransport{Reader: &stdoutReader{File: stdout, proc: p}, Writer: p, MaxLineLength: t.maxMessage}
	return conn.Connect(ctx)
}

// stdoutReader is the read end of a command's stdout. The SDK closes a connection's reader
// before its writer; closing the read end first would kill a command that writes one more
// line while it shuts down (SIGPIPE) instead of letting it exit after its stdin closes, so
// Close stops the command first.
type stdoutReader struct {
	*os.File
	proc *process
}

func (r *stdoutReader) Close() error {
	r.proc.Close()
	return r.File.Close()
}

// stopProcess stops the command if it was started; the session closes it otherwise.
func (t *commandTransport) stopProcess() {
	t.mu.Lock()
	p := t.proc
	t.mu.Unlock()
	if p != nil {
		p.Close()
	}
}

// exit describes how the command ended, with the last lines of its stderr: "" while it runs.
func (t *commandTransport) exit() string {
	t.mu.Lock()
	p := t.proc
	t.mu.Unlock()
	var parts []string
	if p != nil {
		select {
		case <-p.exited:
			parts = append(parts, "process exited: "+exitText(p.err))
		default:
		}
	}
	if tail := t.stderr.tail(); tail != "" {
		parts = append(parts, "stderr: "+tail)
	}
	return strings.Join(parts, "; ")
}

func exitText(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "exit status 0"
	case errors.As(err, &ee):
		return ee.String()
	default:
		return err.Error()
	}
}

// A process is a running command; writing to it writes to its stdin, and closing it stops it.
type process struct {
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	terminate time.Duration

	exited chan struct{} // closed when the command has exited and err is set
	err    error
	once   sync.Once
}

// wait waits for the command to exit, then kills what it left behind in its process group:
// a grandchild holding stdout open would otherwise keep the session from ending.
func (p *process) wait() {
	p.err = p.cmd.Wait()
	close(p.exited)
	signalGroup(p.cmd, killSignal)
}

func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close stops the command the way the MCP specification asks of a stdio client: close its
// stdin and wait; then SIGTERM and wait; then SIGKILL. Signals go to the process group.
func (p *process) Close() error {
	p.once.Do(func() {
		p.stdin.Close()
		if p.waitFor(p.terminate) {
			return
		}
		signalGroup(p.cmd, terminateSignal)
		if p.waitFor(p.terminate) {
			return
		}
		signalGroup(p.cmd, killSignal)
		<-p.exited
	})
	return nil
}

func (p *process) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// Limits of what stderrTail keeps.
const (
	stderrTailLines = 8
	stderrLineMax   = 512
)

// stderrTail receives a command's stderr: it logs each line at debug level and keeps the
// last few, redacted, for error messages.
type stderrTail struct {
	log *slog.Logger
	red *redactor

	mu      sync.Mutex
	partial []byte
	lines   []string
}

func (s *stderrTail) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, b...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		s.line(string(s.partial[:i]))
		s.partial = s.partial[i+1:]
	}
	if len(s.partial) > stderrLineMax { // a very long line without a newline
		s.line(string(s.partial))
		s.partial = s.partial[:0]
	}
	return len(b), nil
}

func (s *stderrTail) line(l string) {
	l = strings.TrimSpace(strings.ToValidUTF8(l, "�"))
	if l == "" {
		return
	}
	if len(l) > stderrLineMax {
		l = l[:stderrLineMax] + "…"
	}
	l = s.red.String(l)
	s.log.Debug("upstream stderr", "line", l)
	s.lines = append(s.lines, l)
	if len(s.lines) > stderrTailLines {
		s.lines = s.lines[len(s.lines)-stderrTailLines:]
	}
}

// tail returns the last lines of stderr, joined by " | ".
func (s *stderrTail) tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := s.lines
	if p := strings.TrimSpace(string(s.partial)); p != "" {
		lines = append(lines[:len(lines):len(lines)], s.red.String(p))
	}
	return strings.Join(lines, " | ")
}
