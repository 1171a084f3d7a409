package lang

/*
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h> // mallinfo2
#endif

// From tree-sitter's api.h (v0.25); see matches.go.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;

extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));
extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *self);
extern _Bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
extern void ts_parser_set_timeout_micros(TSParser *self, uint64_t timeout_micros);
extern TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
extern void ts_tree_delete(TSTree *self);

// A winnow_arena is one reservation of address space that a parse
// allocates from by bumping a pointer. Blocks are 16-byte aligned and
// carry no header: whether a block is the arena's is where it lies.
typedef struct {
	char *base;    // the reservation, size bytes
	size_t size;
	char *next;    // the first free byte
	char *limit;   // the end of this parse's room, at most base+size
	char *last;    // the last block handed out, which can grow in place
	char *touched; // [base, touched) may be resident
	int spilled;   // the room ran out and blocks went to the C library
} winnow_arena;

// winnow_current is the arena of the parse running on this thread, or
// NULL: set for the length of one C call, never across calls.
static _Thread_local winnow_arena *winnow_current;

static int winnow_owns(const winnow_arena *a, const void *p) {
	return (const char *)p >= a->base && (const char *)p < a->base + a->size;
}

static void winnow_oom(size_t n) {
	fprintf(stderr, "tree-sitter failed to allocate %zu bytes", n);
	abort();
}

// winnow_bump returns n bytes of a's room, or NULL (and marks a spilled)
// if they do not fit. Blocks are at least 16 bytes, so no two share an
// address (see winnow_free).
static void *winnow_bump(winnow_arena *a, size_t n) {
	size_t room = (size_t)(a->limit - a->next);
	if (n > room) {
		a->spilled = 1;
		return NULL;
	}
	size_t m = n < 16 ? 16 : (n + 15) & ~(size_t)15;
	if (m > room) {
		a->spilled = 1;
		return NULL;
	}
	char *p = a->next;
	a->next = p + m;
	a->last = p;
	if (a->next > a->touched) {
		a->touched = a->next;
	}
	return p;
}

static void *winnow_libc_malloc(size_t n) {
	void *p = malloc(n);
	if (p == NULL && n > 0) {
		winnow_oom(n);
	}
	return p;
}

static void *winnow_malloc(size_t n) {
	winnow_arena *a = winnow_current;
	if (a != NULL) {
		void *p = winnow_bump(a, n);
		if (p != NULL) {
			return p;
		}
	}
	return winnow_libc_malloc(n);
}

// winnow_memset is memset called through a volatile pointer, so that the
// compiler cannot fuse winnow_calloc's malloc and memset into calloc
// (explicit_bzero would do too, but macOS lacks it).
static void *(*volatile winnow_memset)(void *, int, size_t) = memset;

// winnow_calloc is calloc that writes the zeros itself (see
// useAllocator), through winnow_memset. It fails as tree-sitter's
// own does.
static void *winnow_calloc(size_t count, size_t size) {
	size_t n;
	if (__builtin_mul_overflow(count, size, &n)) {
		winnow_oom(SIZE_MAX);
	}
	void *p = winnow_malloc(n);
	if (p != NULL) {
		winnow_memset(p, 0, n);
	}
	return p;
}

// winnow_realloc moves a block of the arena by copying as much of it as
// there can be: its size is not recorded, but it ends before the arena's
// next byte, and what is copied past its end is the new block's to
// overwrite. A block of the C library stays in the C library.
static void *winnow_realloc(void *p, size_t n) {
	winnow_arena *a = winnow_current;
	if (p == NULL) {
		return winnow_malloc(n);
	}
	if (a == NULL || !winnow_owns(a, p)) {
		void *q = realloc(p, n);
		if (q == NULL && n > 0) {
			winnow_oom(n);
		}
		return q;
	}
	size_t held = (size_t)(a->next - (char *)p);
	if (p == a->last) {
		// The last block grows or shrinks in place.
		a->next = p;
		void *q = winnow_bump(a, n);
		if (q != NULL) {
			return q;
		}
		a->next = (char *)p + held;
		a->last = p;
	}
	void *q = winnow_malloc(n);
	memcpy(q, p, n < held ? n : held);
	return q;
}

// winnow_free lets a block of the arena go with the arena, except the
// last one handed out, whose room is handed out again.
static void winnow_free(void *p) {
	winnow_arena *a = winnow_current;
	if (a != NULL && winnow_owns(a, p)) {
		if (p == a->last) {
			a->next = p;
			a->last = NULL;
		}
		return;
	}
	free(p);
}

// winnow_calloc_reused reports whether winnow_calloc zeroes memory that
// held something else: n bytes malloc'd, filled and freed, then
// allocated again (glibc hands the same chunk back).
static int winnow_calloc_reused(size_t n) {
	unsigned char *p = malloc(n);
	if (p == NULL) {
		return 0;
	}
	memset(p, 0xa5, n);
	free(p);
	p = winnow_calloc(n, 1);
	int zero = 1;
	for (size_t i = 0; i < n; i++) {
		zero &= p[i] == 0;
	}
	free(p);
	return zero;
}

static void winnow_install_allocator(void) {
	ts_set_allocator(winnow_malloc, winnow_calloc, winnow_realloc, winnow_free);
}

static winnow_arena *winnow_arena_new(size_t size) {
	winnow_arena *a = calloc(1, sizeof *a);
	if (a == NULL) {
		return NULL;
	}
	int flags = MAP_PRIVATE | MAP_ANON;
#ifdef MAP_NORESERVE
	flags |= MAP_NORESERVE;
#endif
	void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (base == MAP_FAILED) {
		free(a);
		return NULL;
	}
	a->base = a->next = a->limit = a->touched = base;
	a->size = size;
	return a;
}

static void winnow_arena_free(winnow_arena *a) {
	munmap(a->base, a->size);
	free(a);
}

// winnow_arena_parse parses src with a parser made for the purpose in a,
// and deleted before it returns: the parser keeps pools of tree nodes
// from one parse to the next, which must not outlive the arena. The
// tree it returns (NULL if none) lives in a until winnow_arena_reset.
static TSTree *winnow_arena_parse(winnow_arena *a, size_t room, const TSLanguage *lang,
		uint64_t timeout, const char *src, uint32_t n) {
	a->limit = a->base + (room < a->size ? room : a->size);
	winnow_current = a;
	TSTree *tree = NULL;
	TSParser *p = ts_parser_new();
	if (ts_parser_set_language(p, lang)) {
		ts_parser_set_timeout_micros(p, timeout);
		tree = ts_parser_parse_string(p, NULL, src, n);
	}
	// Frees the blocks that went to the C library, here the external
	// scanner's state (grammars' scanners call malloc themselves).
	ts_parser_delete(p);
	winnow_current = NULL;
	return tree;
}

// winnow_arena_trim hands back to the system what a holds past its
// first keep bytes. a holds no tree.
static void winnow_arena_trim(winnow_arena *a, size_t keep) {
	char *kept = a->base + (keep < a->size ? keep : a->size);
	if (a->touched > kept) {
		madvise(kept, (size_t)(a->touched - kept), MADV_DONTNEED);
		a->touched = kept;
	}
}

// winnow_arena_reset ends tree, the last parse's, and empties a, keeping
// keep bytes of it resident for the next parse. A tree that spilled into
// the C library is deleted first, with a current so that only its
// blocks of the C library are freed.
static void winnow_arena_reset(winnow_arena *a, TSTree *tree, size_t keep) {
	if (a->spilled && tree != NULL) {
		winnow_current = a;
		ts_tree_delete(tree);
		winnow_current = NULL;
	}
	a->next = a->limit = a->base;
	a->last = NULL;
	a->spilled = 0;
	winnow_arena_trim(a, keep);
}

// winnow_arena_check allocates, moves and frees blocks of both kinds
// while a is current, and returns the first step that went wrong, or
// NULL. It leaves a empty.
static const char *winnow_arena_check(winnow_arena *a) {
	const char *bad = NULL;
	char *before = malloc(64);
	a->limit = a->base + (1 << 16);
	winnow_current = a;
	char *x = winnow_malloc(40);
	memset(x, 7, 40);
	char *y = winnow_malloc(24);
	if (!winnow_owns(a, x) || !winnow_owns(a, y) || ((uintptr_t)x | (uintptr_t)y) % 16 != 0) {
		bad = "malloc: not 16-byte aligned blocks of the arena";
	}
	char *x2 = winnow_realloc(x, 100);
	if (!bad && (x2 == x || !winnow_owns(a, x2) || x2[0] != 7 || x2[39] != 7)) {
		bad = "realloc of a block not the last: not moved with its bytes";
	}
	if (!bad && winnow_realloc(x2, 200) != x2) {
		bad = "realloc of the last block: not grown in place";
	}
	winnow_free(x2);
	char *z = winnow_calloc(200, 1);
	if (!bad && (z != x2 || z[0] != 0 || z[39] != 0)) {
		bad = "free of the last block then calloc: room not reused, or not zeroed";
	}
	winnow_free(before); // the C library's, freed while the arena is current
	char *lib = winnow_realloc(malloc(16), 4096);
	if (!bad && winnow_owns(a, lib)) {
		bad = "realloc of a block of the C library: moved into the arena";
	}
	char *big = winnow_malloc(1 << 17);
	if (!bad && (winnow_owns(a, big) || !a->spilled)) {
		bad = "malloc past the room: not spilled into the C library";
	}
	char *y2 = winnow_realloc(y, 1 << 17);
	if (!bad && (winnow_owns(a, y2) || y2 == NULL)) {
		bad = "realloc past the room: not moved into the C library";
	}
	winnow_current = NULL;
	char *after = winnow_malloc(32);
	if (!bad && winnow_owns(a, after)) {
		bad = "malloc with no arena current: from the arena";
	}
	winnow_free(after);
	winnow_free(lib);
	winnow_free(big);
	winnow_free(y2);
	winnow_arena_reset(a, NULL, 0);
	return bad;
}

// winnow_heap_in_use is the C library's heap in use, -1 if unknown.
static long long winnow_heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
	return (long long)mallinfo2().uordblks;
#else
	return -1;
#endif
}
*/
import "C"

import (
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// installAllocator points tree-sitter at winnow's allocator: the C
// library's, except during an arena's parse.
func installAllocator() { C.winnow_install_allocator() }

// callocZeroes reports whether tree-sitter's calloc (winnow_calloc) zeroes
// a chunk of n bytes that held something before.
func callocZeroes(n int) bool { return C.winnow_calloc_reused(C.size_t(n)) != 0 }

// An arena holds the C memory of one small file's parse, its parser's
// and its tree's, so that the tree goes all at once.
//
// A parse allocates and frees millions of small blocks, and deleting
// its tree frees them again one by one: on sympy a fifth of the CPU of
// parsing and deleting went to glibc's malloc and free and to the walk
// of ts_subtree_release. In an arena a block is a pointer bumped, free
// does nothing (but hand the last block back, which tree-sitter's
// arrays grow in place), and the tree is deleted by setting the pointer
// back: parsing sympy's files under largeSource takes some 18% less
// CPU, a cold build of sympy 7-8% less.
//
// tree-sitter has one allocator for the process (ts_set_allocator).
// winnow's tells an arena's parse from everything else by a thread-local
// pointer, set for the one C call that parses (winnow_arena_parse; a C
// call stays on its thread) and never across calls, and tells a block
// of an arena from one of the C library by its address: an arena is one
// reservation of address space, and its blocks carry no header. A block
// of the C library freed or moved while an arena's parse runs stays the
// C library's. A parser keeps pools of tree nodes from one parse to the
// next, so an arena's parser is made for one parse and deleted in that
// same call; its tree is never deleted (ts_tree_delete would free the
// arena's blocks into the C library), only reset with the arena.
// Everything else, queries, query cursors and tree cursors over an
// arena's tree included, is made and freed outside that call, in the C
// library.
//
// A parse may take arenaRoom bytes of an arena, twice what any of
// sympy's took (at most 120 per byte of source); past them it goes on in
// the C library, and reset then deletes its tree with the arena current,
// which frees only the tree's blocks of the C library. An arena keeps
// arenaKeep bytes resident for the next parse (all but 22 of sympy's
// 1,510 small files fit in them), and none while a large file is parsed
// (trimArenas). Files of largeSource and up are parsed in the C library,
// which reuses what a parse frees; an arena would hold it too.
type arena struct {
	a *C.winnow_arena
}

const (
	arenaSize = 64 << 20 // address space, not memory: over arenaRoom(largeSource)
	arenaKeep = 4 << 20
)

// arenaRoom is the most memory a parse of n bytes may take in an arena;
// past that the parse continues in the C library.
func arenaRoom(n int) int { return 1<<20 + 256*n }

// arenas are the process's open arenas, for trimArenas.
var arenas struct {
	sync.Mutex
	open map[*arena]struct{}
}

// newArena returns an arena, or nil if there is no address space for one.
func newArena() *arena {
	ca := C.winnow_arena_new(arenaSize)
	if ca == nil {
		return nil
	}
	a := &arena{a: ca}
	arenas.Lock()
	if arenas.open == nil {
		arenas.open = make(map[*arena]struct{})
	}
	arenas.open[a] = struct{}{}
	arenas.Unlock()
	return a
}

// trimArenas hands back to the system what every open arena keeps for
// its next parse. No arena may be parsing or hold a tree: the caller
// holds the parse gate (beginParse).
func trimArenas() {
	arenas.Lock()
	defer arenas.Unlock()
	for a := range arenas.open {
		C.winnow_arena_trim(a.a, 0)
	}
}

// parse parses src in l, giving up after timeout microseconds, in room
// bytes of the arena at most (arenaRoom) and then in the C library. It
// returns nil as Parse does: no tree. The tree is the arena's: end it
// with reset, never with Close.
func (a *arena) parse(l *sitter.Language, timeout uint64, room int, src []byte) *sitter.Tree {
	if uint64(len(src)) > 1<<32-1 {
		return nil
	}
	ctree := C.winnow_arena_parse(a.a, C.size_t(room), (*C.TSLanguage)(unsafe.Pointer(l.Inner)),
		C.uint64_t(timeout), (*C.char)(unsafe.Pointer(unsafe.SliceData(src))), C.uint32_t(len(src)))
	if ctree == nil {
		return nil
	}
	tree := new(sitter.Tree)
	*(**C.TSTree)(unsafe.Pointer(tree)) = ctree
	return tree
}

// reset ends tree, the arena's last parse (nil if it gave none), and
// makes room for the next.
func (a *arena) reset(tree *sitter.Tree) {
	var ctree *C.TSTree
	if tree != nil {
		ctree = *(**C.TSTree)(unsafe.Pointer(tree))
	}
	C.winnow_arena_reset(a.a, ctree, arenaKeep)
}

// check runs the allocator through blocks of both kinds with a current,
// and reports the first step that went wrong, "" if none.
func (a *arena) check() string {
	if bad := C.winnow_arena_check(a.a); bad != nil {
		return C.GoString(bad)
	}
	return ""
}

// cHeapInUse is the bytes of the C library's heap in use, -1 if unknown.
func cHeapInUse() int64 { return int64(C.winnow_heap_in_use()) }

func (a *arena) close() {
	arenas.Lock()
	delete(arenas.open, a)
	arenas.Unlock()
	C.winnow_arena_free(a.a)
	a.a = nil
}
