package telescope

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"text/template"
)

// ErrUnknownStrategy is returned for a strategy name the registry does not have.
var ErrUnknownStrategy = errors.New("unknown strategy")

// ErrNoModel is returned for an llm strategy when no model is configured.
var ErrNoModel = errors.New("no model is configured")

// A Registry holds the strategies a build can name: the built-in ones and those of the
// configuration. It is read-only once made, apart from Add, and safe for concurrent lookups.
type Registry struct {
	specs  map[string]Spec
	own    map[string]Strategy
	client Completer
	noLLM  error // why client is nil, when known
}

// NewRegistry returns the built-in strategies plus one per spec. client runs llm strategies;
// with a nil client they are still listed, and naming one is an error saying that no model is
// configured.
func NewRegistry(specs []Spec, client Completer) (*Registry, error) {
	r := &Registry{specs: make(map[string]Spec), own: make(map[string]Strategy), client: client}
	for _, name := range deterministicNames {
		r.specs[name] = Spec{Name: name, Version: 1, Kind: name}
	}
	r.specs[LLMSummary] = Spec{Name: LLMSummary, Version: 1, Kind: KindLLM, Prompt: defaultPrompt}
	for _, sp := range specs {
		if _, dup := r.specs[sp.Name]; dup {
			return nil, fmt.Errorf("strategy %q is defined twice, or shadows a built-in one", sp.Name)
		}
		if err := check(sp); err != nil {
			return nil, err
		}
		r.specs[sp.Name] = sp
	}
	return r, nil
}

// NoModel records why the registry has no client, for the error of naming an llm strategy.
func (r *Registry) NoModel(reason error) { r.noLLM = reason }

// Add registers a strategy of the caller's own, such as one that counts its calls in a test.
func (r *Registry) Add(s Strategy) error {
	name := s.Spec().Name
	if _, dup := r.specs[name]; dup {
		return fmt.Errorf("strategy %q is already registered", name)
	}
	if _, dup := r.own[name]; dup {
		return fmt.Errorf("strategy %q is already registered", name)
	}
	r.own[name] = s
	return nil
}

// Spec returns the spec of the strategy named name, if there is one.
func (r *Registry) Spec(name string) (Spec, bool) {
	if s, ok := r.own[name]; ok {
		return s.Spec(), true
	}
	sp, ok := r.specs[name]
	return sp, ok
}

// Names returns the names of every strategy, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.specs)+len(r.own))
	for n := range r.specs {
		names = append(names, n)
	}
	for n := range r.own {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the strategy named name. An unknown name is an error listing the known ones.
func (r *Registry) Lookup(name string) (Strategy, error) {
	if s, ok := r.own[name]; ok {
		return s, nil
	}
	sp, ok := r.specs[name]
	if !ok {
		return nil, fmt.Errorf("%w %q: known strategies are %s", ErrUnknownStrategy, name, strings.Join(r.Names(), ", "))
	}
	return r.Make(sp)
}

// Make returns the strategy sp describes (an inline one, say), checked.
func (r *Registry) Make(sp Spec) (Strategy, error) {
	if err := check(sp); err != nil {
		return nil, err
	}
	if sp.Kind != KindLLM {
		return deterministic(sp), nil
	}
	if r.client == nil && r.noLLM != nil {
		return nil, fmt.Errorf("strategy %q calls a model, and %w: %w", sp.Name, ErrNoModel, r.noLLM)
	}
	if r.client == nil {
		return nil, fmt.Errorf("strategy %q calls a model, and %w: set [llm] provider (and the API key variable it names) in your user configuration file", sp.Name, ErrNoModel)
	}
	tmpl, _ := parsePrompt(sp) // check parsed it
	return newLLMStrategy(sp, tmpl, r.client, deterministic(Spec{Name: sp.Fallback, Version: 1, Kind: sp.Fallback})), nil
}

// check reports what is wrong with sp, if anything.
func check(sp Spec) error {
	switch {
	case sp.Name == "":
		return fmt.Errorf("strategy: no name")
	case sp.Version < 1:
		return fmt.Errorf("strategy %q: version %d must be at least 1", sp.Name, sp.Version)
	case sp.TargetTokens < 0:
		return fmt.Errorf("strategy %q: target_tokens %d must not be negative", sp.Name, sp.TargetTokens)
	case sp.Fallback != "" && !slices.Contains(deterministicNames[:], sp.Fallback):
		return fmt.Errorf("strategy %q: fallback %q must be one of %s", sp.Name, sp.Fallback, strings.Join(deterministicNames[:], ", "))
	case sp.Kind != KindLLM && !slices.Contains(deterministicNames[:], sp.Kind):
		return fmt.Errorf("strategy %q: kind %q must be %s or %s", sp.Name, sp.Kind, KindLLM, strings.Join(deterministicNames[:], ", "))
	case sp.Kind == KindLLM && strings.TrimSpace(sp.Prompt) == "":
		return fmt.Errorf("strategy %q: an llm strategy needs a prompt", sp.Name)
	}
	if sp.Kind == KindLLM {
		if _, err := parsePrompt(sp); err != nil {
			return err
		}
	}
	return nil
}

func parsePrompt(sp Spec) (*template.Template, error) {
	t, err := template.New(sp.Name).Option("missingkey=error").Parse(sp.Prompt)
	if err != nil {
		return nil, fmt.Errorf("strategy %q: prompt: %w", sp.Name, err)
	}
	return t, nil
}
