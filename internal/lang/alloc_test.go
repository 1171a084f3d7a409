package lang

import (
	"testing"
	"testing/synctest"
)

// TestParseGate: a holder waits for the parses in flight, holds back
// those that begin meanwhile, and lets them through at release.
func TestParseGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newParseGate()
		g.beginSmall()
		held := make(chan struct{})
		go func() {
			g.hold()
			close(held)
		}()
		synctest.Wait()
		if closed(held) {
			t.Fatal("hold returned with a parse in flight")
		}
		began := make(chan struct{})
		go func() {
			g.beginSmall()
			close(began)
		}()
		synctest.Wait()
		if closed(began) {
			t.Fatal("a parse began while a holder waited")
		}
		g.endSmall()
		synctest.Wait()
		if !closed(held) {
			t.Fatal("hold still waits with no parse in flight")
		}
		if closed(began) {
			t.Fatal("a parse began while the process was held")
		}
		g.release()
		synctest.Wait()
		if !closed(began) {
			t.Fatal("a parse still waits after release")
		}
		g.endSmall()
	})
}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// TestCallocZeroes: the calloc tree-sitter gets writes its zeros, over
// memory that held something: small chunks and one as large as Python's
// table of parse state predecessors.
func TestCallocZeroes(t *testing.T) {
	for _, n := range []int{24, 4096, 100_000} {
		if !callocZeroes(n) {
			t.Errorf("calloc of %d bytes over a freed chunk: not all zero", n)
		}
	}
}
