package index

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	crashChildEnv   = "WINNOW_INDEX_CRASH_CHILD"
	crashRebuildEnv = "WINNOW_INDEX_CRASH_REBUILD" // the child rebuilds instead of updating
	crashTierEnv    = "WINNOW_INDEX_CRASH_TIER"    // "quick": the child updates with QuickFirst; "upgrade", "whole": it upgrades so
)

func TestMain(m *testing.M) {
	if root := os.Getenv(crashChildEnv); root != "" {
		crashChild(root)
		return
	}
	if root := os.Getenv(updateChildEnv); root != "" {
		updateChild(root)
		return
	}
	os.Exit(m.Run())
}

// crashChild updates (or rebuilds) the index of root and stops dead
// halfway through, holding its write transaction open until the parent
// kills it.
func crashChild(root string) {
	tier := os.Getenv(crashTierEnv)
	ix, err := Open(context.Background(), Options{Root: root, Workers: 1, Rebuild: os.Getenv(crashRebuildEnv) != "", QuickFirst: tier == "quick"})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	midway := func(done, total int) {
		if done == total/2 {
			fmt.Println("midway")
			select {} // wait for SIGKILL
		}
	}
	switch tier {
	case "upgrade":
		ix.Upgrade(context.Background(), midway)
	case "whole":
		ix.UpgradeWhole(context.Background(), midway)
	default:
		ix.Update(context.Background(), midway)
	}
	fmt.Println("error: finished before being killed")
	os.Exit(1)
}

// indexedThenGrown indexes a tree of one file, closes the index, and adds
// 200 files, so that the next update has a long transaction to kill.
func indexedThenGrown(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"before.py": "def before(): pass\n"})
	ix := openIndex(t, Options{Root: root})
	update(t, ix)
	ix.Close()
	many := map[string]string{}
	for i := range 200 {
		many[fmt.Sprintf("new/m%03d.py", i)] = fmt.Sprintf("def after_%d(x):\n    return x\n", i)
	}
	writeTree(t, root, many)
	return root
}

// TestCrashMidUpdate kills a process in the middle of an update's
// transaction and checks that the index it leaves is the previous one,
// intact, and that the next update completes it.
func TestCrashMidUpdate(t *testing.T) {
	root := indexedThenGrown(t)

	killMidway(t, root, false)

	ix := openIndex(t, Options{Root: root})
	var check string
	if err := ix.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check after a crash: %q %v", check, err)
	}
	if got := quals(t, ix, "before"); len(got) != 1 {
		t.Errorf("the previous index was lost: %v", got)
	}
	st, err := ix.Stats(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 1 {
		t.Errorf("a killed update left files behind: %+v", st)
	}
	st = update(t, ix)
	if st.Files != 201 || st.Parsed != 200 {
		t.Errorf("the update after a crash: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(root, ".winnow", "lock")); err != nil {
		t.Errorf("lock file: %v", err)
	}
}

// killMidway runs crashChild on root and kills it (SIGKILL) once it is
// halfway through its update, or its rebuild.
func killMidway(t *testing.T, root string, rebuild bool, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+root)
	if rebuild {
		cmd.Env = append(cmd.Env, crashRebuildEnv+"=1")
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	if strings.TrimSpace(line) != "midway" {
		t.Fatalf("child: %q", line)
	}
}

// TestCrashMidRebuild kills a rebuild halfway: the previous index is
// intact and answers, and the next update removes the half-built file.
func TestCrashMidRebuild(t *testing.T) {
	root := indexedThenGrown(t)

	killMidway(t, root, true)

	tmp := filepath.Join(root, ".winnow", dbName+".new")
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("the killed rebuild left no file behind, so this test shows nothing: %v", err)
	}
	ix := openIndex(t, Options{Root: root})
	var check string
	if err := ix.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check after a crashed rebuild: %q %v", check, err)
	}
	if got := quals(t, ix, "before"); len(got) != 1 {
		t.Errorf("the previous index was lost: %v", got)
	}
	if got := quals(t, ix, "after_7"); len(got) != 0 {
		t.Errorf("the crashed rebuild leaked into the index: %v", got)
	}
	st := update(t, ix)
	if st.Files != 201 || st.Parsed != 200 {
		t.Errorf("the update after a crashed rebuild: %+v", st)
	}
	for _, f := range []string{tmp, tmp + "-wal", tmp + "-shm"} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s outlived the next update: %v", f, err)
		}
	}
}
