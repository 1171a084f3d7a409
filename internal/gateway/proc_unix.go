//go:build unix

package gateway

import (
	"os/exec"
	"syscall"
)

var (
	terminateSignal = syscall.SIGTERM
	killSignal      = syscall.SIGKILL
)

// setProcessGroup starts cmd in a process group of its own, so that signalGroup reaches the
// processes it starts too.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to cmd's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		_ = cmd.Process.Signal(sig) // the group is gone; make sure the process is too
	}
}
