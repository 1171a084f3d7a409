package pipeline

import (
	"container/list"
	"crypto/sha256"
	"strconv"
	"sync"
)

// recentCalls is how many earlier calls of a session lend their argument
// words to the trimming signals.
const recentCalls = 8

// A session holds what the pipeline remembers of one agent session: the
// dedup window and the words of its recent calls. Its methods lock it.
type session struct {
	id string

	mu     sync.Mutex
	seq    int      // calls seen so far
	window []*entry // dedup cache, most recently used first
	recent [][]string
}

// An entry is one text result remembered for dedup.
type entry struct {
	sum   [sha256.Size]byte
	size  int
	tool  string
	args  string   // compact JSON
	paths []string // path-like argument values, for invalidation
	seq   int      // number of the call that returned it
	ref   string   // the id it was stamped with, or ""; never changes
	// text is kept for near-duplicate comparison when the text is a JSON
	// document small enough to compare; "" otherwise.
	text string
	// trimmed is set, under the session's lock, when the agent saw the
	// text trimmed: a near reference to it could name fields the agent
	// never saw.
	trimmed bool
}

// name returns how a reference names the entry: its stamp, or its tool
// and arguments.
func (e *entry) name() string {
	if e.ref != "" {
		return "#" + e.ref
	}
	return e.tool + " " + e.args
}

// ago formats how many calls back the entry's call was.
func ago(n int) string {
	if n == 1 {
		return "1 call ago"
	}
	return strconv.Itoa(n) + " calls ago"
}

// begin numbers a new call of the session and returns its number with the
// words of the calls before it, and remembers the call's own words.
func (s *session) begin(words []string) (seq int, recent []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	for _, ws := range s.recent {
		recent = append(recent, ws...)
	}
	if len(s.recent) == recentCalls {
		s.recent = append(s.recent[:0], s.recent[1:]...)
	}
	s.recent = append(s.recent, words)
	return s.seq, recent
}

// sessions is the bounded set of sessions, least recently used forgotten
// first.
type sessions struct {
	mu  sync.Mutex
	max int
	m   map[string]*list.Element // of *session
	lru *list.List
}

func newSessions(max int) *sessions {
	return &sessions{max: max, m: map[string]*list.Element{}, lru: list.New()}
}

// get returns the session with id, creating it if need be.
func (ss *sessions) get(id string) *session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if el, ok := ss.m[id]; ok {
		ss.lru.MoveToFront(el)
		return el.Value.(*session)
	}
	s := &session{id: id}
	ss.m[id] = ss.lru.PushFront(s)
	for ss.lru.Len() > ss.max {
		old := ss.lru.Remove(ss.lru.Back()).(*session)
		delete(ss.m, old.id)
	}
	return s
}
