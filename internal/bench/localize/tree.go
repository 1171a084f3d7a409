package localize

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// checkTree makes sure a prepared tree is the instance's: it has the
// marker prepare.sh writes last, and a tree with git history (.git) has
// its HEAD at the base commit, so that the history retrieval reads
// cannot hold the fix or anything after it.
func checkTree(ctx context.Context, root string, in Instance) error {
	if _, err := os.Stat(filepath.Join(root, ".prepared")); err != nil {
		return fmt.Errorf("tree %s is not prepared (bench/localize/prepare.sh)", root)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); errors.Is(err, fs.ErrNotExist) {
		return nil // prepared without history
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return fmt.Errorf("tree %s: its git HEAD cannot be read (%v): prepare it again (bench/localize/prepare.sh)", root, err)
	}
	if head := strings.TrimSpace(string(out)); head != in.BaseCommit {
		return fmt.Errorf("tree %s: git HEAD is %s, not the base commit %s, so its history could hold the fix: prepare it again (bench/localize/prepare.sh)", root, head, in.BaseCommit)
	}
	return nil
}
