package toolvalue

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// maxCached bounds the resolved models a Registry keeps: tool names come from the tools
// upstreams list, but a client may call any name, and an unknown one must not grow the
// cache for ever. Past it, models are resolved on every call.
const maxCached = 4096

// A Registry holds the layers of every tool's model and answers [Registry.Model] from a
// cache of resolved models. The layers are, in order: the built-in defaults, the
// annotations of the tool itself (each upstream tool has its own), and the user's
// configuration. It is safe for concurrent use: a reader never waits for a writer, and
// every Set drops the cache, so the next Model sees the new layers.
type Registry struct {
	mu    sync.Mutex // serialises writers
	state atomic.Pointer[registryState]
}

// registryState is one immutable set of layers and the models resolved from it.
type registryState struct {
	builtin     Layer
	annotations map[string]Layer // by tool name
	user        Layer
	cache       sync.Map // tool name → Model
	cached      atomic.Int64
}

// NewRegistry returns a Registry with the built-in layer (usually [Builtin]) and no
// annotations or user rules.
func NewRegistry(builtin Layer) *Registry {
	r := &Registry{}
	r.state.Store(&registryState{builtin: builtin, annotations: map[string]Layer{}})
	return r
}

// SetAnnotations sets the provider layer of one tool (from [FromAnnotations]); an empty
// layer removes it.
func (r *Registry) SetAnnotations(tool string, l Layer) {
	r.update(func(s *registryState) {
		s.annotations = maps.Clone(s.annotations)
		if len(l) == 0 {
			delete(s.annotations, tool)
			return
		}
		s.annotations[tool] = slices.Clone(l)
	})
}

// SetUser replaces the user's layer, as when the configuration file is read again.
func (r *Registry) SetUser(l Layer) {
	r.update(func(s *registryState) { s.user = slices.Clone(l) })
}

// update installs a copy of the current state, changed by f, with an empty cache.
func (r *Registry) update(f func(*registryState)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.state.Load()
	next := &registryState{builtin: old.builtin, annotations: old.annotations, user: old.user}
	f(next)
	r.state.Store(next)
}

// Model returns the effective model of tool. The model's lists and Speculate are shared
// with the cache: callers must not modify them.
func (r *Registry) Model(tool string) Model {
	s := r.state.Load()
	if m, ok := s.cache.Load(tool); ok {
		return m.(Model)
	}
	m, _ := s.resolve(tool)
	if s.cached.Load() < maxCached {
		if _, loaded := s.cache.LoadOrStore(tool, m); !loaded {
			s.cached.Add(1)
		}
	}
	return m
}

// Explain returns the effective model of tool and the origin of each field that a rule
// set (fields absent from the provenance are [Unknown]'s).
func (r *Registry) Explain(tool string) (Model, Provenance) {
	return r.state.Load().resolve(tool)
}

func (s *registryState) resolve(tool string) (Model, Provenance) {
	return Resolve(tool, s.builtin, s.annotations[tool], s.user)
}

// Tools returns, sorted, every tool name and name pattern the layers have a rule for
// ("Read", "*__read_text_file", "github__get_issue"), except the bare "*" that matches
// every tool. A pattern resolves, as a name, to the model its own rules give.
func (r *Registry) Tools() []string {
	s := r.state.Load()
	seen := map[string]bool{}
	add := func(l Layer) {
		for _, rule := range l {
			if rule.Pattern != "*" && strings.TrimSpace(rule.Pattern) != "" {
				seen[rule.Pattern] = true
			}
		}
	}
	add(s.builtin)
	for _, l := range s.annotations {
		add(l)
	}
	add(s.user)
	return slices.Sorted(maps.Keys(seen))
}
