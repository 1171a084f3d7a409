//go:build !unix

package gateway

import (
	"os"
	"os/exec"
)

var (
	terminateSignal os.Signal = os.Kill // there is no SIGTERM to send
	killSignal      os.Signal = os.Kill
)

func setProcessGroup(*exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, sig os.Signal) {
	if cmd.Process != nil {
		_ = cmd.Process.Signal(sig)
	}
}
