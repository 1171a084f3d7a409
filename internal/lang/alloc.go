package lang

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h> // mallopt, malloc_trim; macOS has no malloc.h
#endif

static void winnow_arenas(void) {
#ifdef __GLIBC__
	if (getenv("MALLOC_ARENA_MAX") == NULL) {
		mallopt(M_ARENA_MAX, 2);
	}
#endif
}

static void winnow_trim(void) {
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}
*/
import "C"

import (
	"context"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// useAllocator points tree-sitter at winnow's allocator (arena.go): the
// C library's malloc, realloc and free, and a calloc that writes its
// zeros, except during a parse in an arena.
//
// go-tree-sitter installs an allocator that calls from C into Go and back
// into C for every malloc and free, so that Go programs could plug in
// their own. Parsing allocates constantly: on a large Python tree those
// round trips cost more than a tenth of all parsing time. The functions
// it forwards to are plain malloc and free, so memory allocated either
// way is freed correctly the other way.
//
// It also caps glibc's malloc arenas at two, unless MALLOC_ARENA_MAX
// says otherwise (see largeSource): glibc makes one per thread that
// finds the others busy, up to eight per core, and every one keeps what
// the trees parsed in it freed. On two cores a cold build of sympy
// peaks some 20 MiB lower at the same CPU; one arena cost 15% more CPU
// (the workers queue for its lock). More workers than that share two
// arenas: not measured.
//
// Its calloc writes the zeros of what it allocates (winnow_calloc).
// glibc's leaves memory fresh from the system untouched, already zero,
// and the query compiler of tree-sitter reads its 1.4 MB table of parse
// state predecessors (Python's) before it writes it: every page faulted
// in twice, as the zero page and then copied on write, and the copy
// flushes the page from every core's TLB, by interrupt on the cores
// that run another thread of the process (its parse, as the query
// compiles meanwhile: loadAsync). Written first, each page faults once.
var useAllocator = sync.OnceFunc(func() {
	C.winnow_arenas()
	installAllocator()
})

// A syntax tree takes about a hundred bytes of C memory per byte of
// source (sympy's 733 KB rules/sine.py: some 70 MB), in millions of
// small blocks. glibc keeps what a freed tree held in the arena of the
// thread that parsed it, and cgo calls run on whichever thread is free,
// so after a few large files every arena holds a large tree's worth:
// over 100 MB of a cold build's resident memory on sympy, doing nothing.
// So a large file is parsed alone in the process: its parse waits for
// the parses in flight to end and holds back any other until its tree
// is closed, so that neither another tree nor what the other workers'
// trees left in the other arena is resident beside it; and the
// allocator gives the memory back to the system after each (malloc_trim;
// a few milliseconds, for the few files that size). Files of 128 KB and
// up: at 256 KB the arenas held some 50 MB of freed trees of the files
// just under it when the next large one came (a cold build of sympy
// peaked there, at 150-160 MiB; 140-150 at 128 KB). The other workers
// wait meanwhile, which costs wall time, not CPU: sympy's 34 files of
// 128 KB and up are a quarter of its source. (Files under it have since
// been parsed in arenas of their own, arena.go, which keep little of a
// tree once it is gone, and none beside a large one: the best size for
// largeSource has not been measured again.)
const largeSource = 128 << 10

// largeParse admits one large parse at a time in the process; Parsers
// share it, since the memory they compete for is the process's.
var largeParse = make(chan struct{}, 1)

// parses is the process's parse gate.
var parses = newParseGate()

// beginParse waits for the turn of a source and returns what ends it, to
// call once its tree is closed. A small source waits while a large one
// holds the process; a large one waits for the large one before it, then
// for the small ones in flight.
func beginParse(ctx context.Context, size int) (end func(), err error) {
	if size < largeSource {
		parses.beginSmall()
		return parses.endSmall, nil
	}
	select {
	case largeParse <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	parses.hold()
	// What the small parses before freed goes back too, and what their
	// arenas keep, so that the large tree is the only large thing in C
	// memory.
	trimCHeap()
	trimArenas()
	uncap := capGoHeap()
	return func() {
		uncap()
		trimCHeap()
		parses.release()
		<-largeParse
	}, nil
}

// A parseGate counts the parses in flight, and lets one of them hold the
// process: hold waits for those in flight to end, and no other begins
// until release. Holders take turns by other means (largeParse).
type parseGate struct {
	mu    sync.Mutex
	ended *sync.Cond // broadcast when the last small parse ends, and at release
	small int        // parses in flight
	held  bool       // a holder has the process or waits for it
}

func newParseGate() *parseGate {
	g := &parseGate{}
	g.ended = sync.NewCond(&g.mu)
	return g
}

// beginSmall waits while the process is held, or waited for, and counts
// a parse in.
func (g *parseGate) beginSmall() {
	g.mu.Lock()
	for g.held {
		g.ended.Wait()
	}
	g.small++
	g.mu.Unlock()
}

// endSmall counts a parse out.
func (g *parseGate) endSmall() {
	g.mu.Lock()
	g.small--
	if g.small == 0 && g.held {
		g.ended.Broadcast()
	}
	g.mu.Unlock()
}

// hold stops parses from beginning and waits for those in flight to end.
func (g *parseGate) hold() {
	g.mu.Lock()
	g.held = true
	for g.small > 0 {
		g.ended.Wait()
	}
	g.mu.Unlock()
}

// release lets parses begin again.
func (g *parseGate) release() {
	g.mu.Lock()
	g.held = false
	g.ended.Broadcast()
	g.mu.Unlock()
}

// trimCHeap hands the C allocator's free memory back to the system.
func trimCHeap() { C.winnow_trim() }

// While a large tree is held, the Go heap is what else is resident, and
// at its default pace it grows to twice what was live at its last
// collection before collecting again: on sympy 40-50 MiB beside
// sine.py's tree, some 25 of them garbage. capGoHeap lowers the soft
// memory limit, for the large parse only, to what was live plus
// largeHeapRoom, and returns what restores it: the collector runs more
// often meanwhile, not on a heap that was already larger (a server
// holding a corpus gets the room on top of it; the limit also counts
// the runtime's own few MiB). Never above a limit already set; one set
// meanwhile by someone else is overwritten when it is restored.
func capGoHeap() (restore func()) {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() != metrics.KindUint64 {
		return func() {}
	}
	limit := int64(min(live[0].Value.Uint64(), math.MaxInt64/2)) + largeHeapRoom
	old := debug.SetMemoryLimit(-1)
	if old <= limit {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}

// largeHeapRoom is the Go heap's room during a large parse: on sympy a
// cold build peaked some 15 MiB lower with it, at about 2% more CPU.
const largeHeapRoom = 16 << 20
