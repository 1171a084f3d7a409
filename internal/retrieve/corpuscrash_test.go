package retrieve

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/index"
)

// saveChildEnv names the tree a child process of TestKilledWhileSaving
// edits, indexes and saves the corpus files of, until it is killed.
const saveChildEnv = "WINNOW_RETRIEVE_SAVE_CHILD"

// TestKilledWhileSaving kills, at random moments, a process that edits
// a tree, updates its index and saves the corpus files after each edit
// (a delta, or now and then the corpus file whole), and checks that what it leaves opens as the corpus built from the
// index, or is refused and built again: never misread.
func TestKilledWhileSaving(t *testing.T) {
	if root := os.Getenv(saveChildEnv); root != "" {
		saveChild(root)
		return
	}
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("pkg%d/m%02d.py", i%4, i)] = fmt.Sprintf("def f%d(x):\n    return g%d(x) + %d\n", i, i, i)
	}
	root := writeTree(t, files)
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 12 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWhileSaving$")
		cmd.Env = append(os.Environ(), saveChildEnv+"="+root)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the first save, then kill it somewhere in the next ones.
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "saved\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: the child said %q, %v", round, line, err)
		}
		time.Sleep(time.Duration(r.IntN(150_000)) * time.Microsecond)
		cmd.Process.Kill()
		cmd.Wait()

		ix, err := index.Open(t.Context(), index.Options{Root: root})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		built, err := loadCorpus(t.Context(), ix, DefaultParams)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for _, mapped := range []bool{false, true} {
			c, err := New(ix, &Options{MapCorpus: mapped}).corpus(t.Context())
			if err != nil {
				t.Fatalf("round %d: the corpus after the kill: %v", round, err)
			}
			c.tier = built.tier
			sameAsBuilt(t, built, c, fmt.Sprintf("round %d, mapped %v", round, mapped))
		}
		ix.Close()
	}
}

// saveChild edits root, updates its index and saves the corpus files,
// over and over, saying "saved" after the first save.
func saveChild(root string) {
	ctx := context.Background()
	ix, err := index.Open(ctx, index.Options{Root: root, Workers: 1})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	r := rand.New(rand.NewPCG(uint64(os.Getpid()), 1))
	for i := 0; ; i++ {
		if _, err := ix.Update(ctx, nil); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		e := New(ix, nil)
		// Now and then as after finding the corpus file damaged: it is
		// written whole.
		e.damaged = r.IntN(4) == 0
		if _, err := e.SaveCorpus(ctx); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		if i == 0 {
			fmt.Println("saved")
		}
		for range 1 + r.IntN(3) {
			k := r.IntN(40)
			p := filepath.Join(root, fmt.Sprintf("pkg%d/m%02d.py", k%4, k))
			src := fmt.Sprintf("def f%d(x):\n    return g%d(x) + %d\n\ndef h%d_%d():\n    return word%d\n", k, k, i, k, i, r.IntN(100))
			os.WriteFile(p, []byte(src), 0o644)
			future := time.Now().Add(time.Duration(i+1) * time.Second)
			os.Chtimes(p, future, future)
		}
	}
}
