package report

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"time"
)

// ErrNoOpener reports that the program that opens files in the desktop's
// browser is not installed (a server, a container).
var ErrNoOpener = errors.New("no program to open files with")

// openWait is how long Open waits for the opener to exit. xdg-open and open
// hand the file to the browser and exit; an opener still running after
// this is taken to be the browser itself, and left running.
const openWait = 5 * time.Second

// opener returns the program that opens a file in the default browser on
// goos, and its arguments before the file.
func opener(goos string) (name string, args []string) {
	switch goos {
	case "darwin":
		return "open", nil
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler"}
	}
	return "xdg-open", nil
}

// Open opens the file at path in the desktop's default browser and returns
// the opener's name. It returns an error wrapping ErrNoOpener when there is
// no opener, and the opener's error when it fails within openWait.
func Open(ctx context.Context, path string) (string, error) {
	name, args := opener(runtime.GOOS)
	bin, err := exec.LookPath(name)
	if err != nil {
		return name, fmt.Errorf("%w (looked for %s)", ErrNoOpener, name)
	}
	cmd := exec.Command(bin, append(args, path)...)
	if err := cmd.Start(); err != nil {
		return name, fmt.Errorf("start %s: %w", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // ends when the opener exits
	select {
	case err := <-done:
		if err != nil {
			return name, fmt.Errorf("%s %s: %w", name, path, err)
		}
	case <-time.After(openWait):
	case <-ctx.Done():
	}
	return name, nil
}
