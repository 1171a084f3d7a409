package toolvalue

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFromAnnotations(t *testing.T) {
	tests := []struct {
		name string
		a    *mcp.ToolAnnotations
		want SideEffect // "" for an empty layer
	}{
		{"no annotations", nil, ""},
		{"read-only", &mcp.ToolAnnotations{ReadOnlyHint: true}, ReadOnly},
		{"read-only wins over the destructive default", &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: ptr(true)}, ReadOnly},
		{"read-only in an open world is still read-only", &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)}, ReadOnly},
		{"a title only: every hint at its default", &mcp.ToolAnnotations{Title: "Create issue"}, MutatesExternal},
		{"additive, open world", &mcp.ToolAnnotations{DestructiveHint: ptr(false)}, MutatesExternal},
		{"idempotent is still a mutation", &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: ptr(false)}, MutatesExternal},
		{"closed world", &mcp.ToolAnnotations{OpenWorldHint: ptr(false)}, MutatesLocal},
		{"closed world, destructive", &mcp.ToolAnnotations{OpenWorldHint: ptr(false), DestructiveHint: ptr(true)}, MutatesLocal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := FromAnnotations("srv__tool", tt.a)
			if tt.want == "" {
				if l != nil {
					t.Fatalf("layer = %+v, want none", l)
				}
				return
			}
			m, prov := Resolve("srv__tool", l)
			if m.SideEffect != tt.want || prov["side_effect"] != OriginAnnotations {
				t.Errorf("side_effect = %s from %q, want %s from %q", m.SideEffect, prov["side_effect"], tt.want, OriginAnnotations)
			}
			if m, _ := Resolve("srv__other", l); m.SideEffect != Indeterminate {
				t.Errorf("the layer applies to another tool: %s", m.SideEffect)
			}
		})
	}
}

func TestRegistryLayers(t *testing.T) {
	builtin := Layer{
		{Pattern: "*__read_text_file", Origin: "builtin", Spec: Spec{Class: ptr(Critical), SideEffect: ptr(ReadOnly), TypicalTokens: ptr(600)}},
		{Pattern: "*__write_file", Origin: "builtin", Spec: Spec{SideEffect: ptr(MutatesLocal)}},
	}
	r := NewRegistry(builtin)
	if m := r.Model("fs__read_text_file"); !m.Speculable() || m.Cost.TypicalTokens != 600 {
		t.Fatalf("built-in model = %+v", m)
	}

	// The annotations of one tool override the built-ins, for that tool only.
	r.SetAnnotations("fs__read_text_file", FromAnnotations("fs__read_text_file", &mcp.ToolAnnotations{Title: "t"}))
	if m := r.Model("fs__read_text_file"); m.Speculable() || m.SideEffect != MutatesExternal {
		t.Errorf("annotations not applied after SetAnnotations: %+v", m)
	}
	if m := r.Model("other__read_text_file"); !m.Speculable() {
		t.Errorf("another tool's annotations applied: %+v", m)
	}

	// The user's rules override both.
	r.SetUser(Layer{
		{Pattern: "*", Origin: "config.toml:2", Spec: Spec{TypicalTokens: ptr(50)}},
		{Pattern: "fs__read_text_file", Origin: "config.toml:5", Spec: Spec{SideEffect: ptr(ReadOnly)}},
	})
	m, prov := r.Explain("fs__read_text_file")
	want := Provenance{
		"value_class": "builtin", "side_effect": "config.toml:5", "cost_model.typical_tokens": "config.toml:2",
	}
	if diff := cmp.Diff(want, prov); diff != "" {
		t.Errorf("provenance (-want +got):\n%s", diff)
	}
	if got := r.Model("fs__read_text_file"); !cmp.Equal(got, m) || !got.Speculable() || got.Cost.TypicalTokens != 50 {
		t.Errorf("Model = %+v, Explain = %+v", got, m)
	}

	// Removing the annotations and reloading the user's layer drop the cache again.
	r.SetAnnotations("fs__read_text_file", nil)
	r.SetUser(nil)
	if m := r.Model("fs__read_text_file"); !m.Speculable() || m.Cost.TypicalTokens != 600 {
		t.Errorf("after removing the annotations and user rules: %+v", m)
	}
	r.SetAnnotations("gh__create_issue", FromAnnotations("gh__create_issue", &mcp.ToolAnnotations{}))
	r.SetUser(Layer{{Pattern: "*", Origin: "x"}, {Pattern: "Read", Origin: "x"}})
	if got, want := r.Tools(), []string{"*__read_text_file", "*__write_file", "Read", "gh__create_issue"}; !slices.Equal(got, want) {
		t.Errorf("Tools = %q, want %q", got, want)
	}
}

// TestRegistryConcurrent runs readers against writers (go test -race finds any unguarded
// access); every model a reader sees is one some state of the layers resolves to.
func TestRegistryConcurrent(t *testing.T) {
	r := NewRegistry(Layer{{Pattern: "Read", Origin: "builtin", Spec: Spec{TypicalTokens: ptr(600)}}})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				n := r.Model("Read").Cost.TypicalTokens
				if n != 600 && n%100 != 1 {
					t.Errorf("reader %d: typical_tokens %d from no state", i, n)
					return
				}
				r.Model(fmt.Sprintf("tool%d", n%7))
			}
		})
	}
	for i := range 200 {
		r.SetUser(Layer{{Pattern: "Read", Origin: "u", Spec: Spec{TypicalTokens: ptr(i*100 + 1)}}})
		if i%2 == 0 {
			r.SetAnnotations("Read", nil)
		}
	}
	close(stop)
	wg.Wait()
	if got := r.Model("Read").Cost.TypicalTokens; got != 19901 {
		t.Errorf("after the last SetUser: typical_tokens %d, want 19901", got)
	}
}

func TestRegistryCacheIsBounded(t *testing.T) {
	r := NewRegistry(nil)
	for i := range maxCached + 100 {
		r.Model(fmt.Sprint("t", i))
	}
	if n := r.state.Load().cached.Load(); n != maxCached {
		t.Errorf("%d models cached, want at most %d", n, maxCached)
	}
	if m := r.Model(fmt.Sprint("t", maxCached+50)); m.SideEffect != Indeterminate {
		t.Errorf("an uncached tool resolved to %+v", m)
	}
}

// BenchmarkRegistryModel compares a cached Model with a plain map lookup of the same
// model, the floor a cache can reach: go test -bench RegistryModel ./internal/toolvalue.
func BenchmarkRegistryModel(b *testing.B) {
	r := NewRegistry(Builtin())
	names := []string{"Read", "Grep", "fs__read_text_file", "github__get_issue", "unknown_tool"}
	plain := map[string]Model{}
	for _, n := range names {
		plain[n] = r.Model(n)
	}
	b.Run("registry", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = r.Model(names[i%len(names)])
			i++
		}
	})
	b.Run("map", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = plain[names[i%len(names)]]
			i++
		}
	})
	b.Run("resolve", func(b *testing.B) {
		builtin := Builtin()
		i := 0
		for b.Loop() {
			_, _ = Resolve(names[i%len(names)], builtin)
			i++
		}
	})
}
