package intent

import "fmt"

// Kind is what a task asks of the code. The zero Kind is Definition, the
// kind Detect reports when a text gives no cue at all.
type Kind uint8

// The kinds. Their order is the tie-break order of Detect.
const (
	Definition  Kind = iota // definition lookup: "where is X defined", "what does X do", "show me X"
	Usage                   // usage exploration: "who calls X", "where is X used", "find all usages"
	Implement               // implementation: "add support for …", "implement …", feature requests
	BugFix                  // bug fix: failures, errors, crashes, wrong results, stack traces
	Refactor                // "rename", "extract", "move", "clean up", "deprecate", "simplify"
	TestWriting             // "write tests for", "add a test", "test coverage"
	NumKinds                // the number of kinds, for arrays indexed by Kind
)

var kindNames = [NumKinds]string{
	Definition:  "definition",
	Usage:       "usage",
	Implement:   "implement",
	BugFix:      "bug_fix",
	Refactor:    "refactor",
	TestWriting: "test_writing",
}

func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// ParseKind returns the Kind named s, as String spells it.
func ParseKind(s string) (Kind, bool) {
	for k, name := range kindNames {
		if name == s {
			return Kind(k), true
		}
	}
	return Definition, false
}

func (k Kind) MarshalText() ([]byte, error) {
	if k >= NumKinds {
		return nil, fmt.Errorf("marshal intent kind: unknown kind %d", k)
	}
	return []byte(k.String()), nil
}

func (k *Kind) UnmarshalText(b []byte) error {
	v, ok := ParseKind(string(b))
	if !ok {
		return fmt.Errorf("unknown intent kind %q", b)
	}
	*k = v
	return nil
}
