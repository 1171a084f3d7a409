package lang

import (
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// roleKind says what a query capture means to the extractor. The capture
// names form a small contract between the .scm files and this package;
// doc.go lists them.
type roleKind uint8

const (
	roleIgnore       roleKind = iota // "_…": helpers for predicates
	roleDefinition                   // "definition.<kind>"
	roleScope                        // "scope": qualifies names inside, is not a symbol
	roleName                         // "name" of the definition or scope
	roleParent                       // "parent": explicit container name (Go receiver, C++ A::f)
	roleReference                    // "reference.<call|type|member|name>"
	roleImport                       // "import": the whole statement
	roleImportModule                 // "import.module"
	roleImportName                   // "import.name"
	roleImportAlias                  // "import.alias"
	rolePackage                      // "package": the file's package or namespace
)

type role struct {
	kind roleKind
	def  symbol.Kind    // for roleDefinition
	ref  symbol.RefKind // for roleReference
}

// captureRoles maps each capture name of a query to its role, rejecting
// names outside the contract so that a typo in a query fails loudly.
func captureRoles(names []string) ([]role, error) {
	roles := make([]role, len(names))
	for i, name := range names {
		r, err := parseRole(name)
		if err != nil {
			return nil, err
		}
		roles[i] = r
	}
	return roles, nil
}

func parseRole(name string) (role, error) {
	switch name {
	case "scope":
		return role{kind: roleScope}, nil
	case "name":
		return role{kind: roleName}, nil
	case "parent":
		return role{kind: roleParent}, nil
	case "import":
		return role{kind: roleImport}, nil
	case "import.module":
		return role{kind: roleImportModule}, nil
	case "import.name":
		return role{kind: roleImportName}, nil
	case "import.alias":
		return role{kind: roleImportAlias}, nil
	case "package":
		return role{kind: rolePackage}, nil
	}
	if strings.HasPrefix(name, "_") {
		return role{kind: roleIgnore}, nil
	}
	if k, ok := strings.CutPrefix(name, "definition."); ok {
		kind, ok := symbol.ParseKind(k)
		if !ok || kind == symbol.Unknown {
			return role{}, fmt.Errorf("capture @%s: unknown definition kind %q", name, k)
		}
		return role{kind: roleDefinition, def: kind}, nil
	}
	if k, ok := strings.CutPrefix(name, "reference."); ok {
		kind, ok := symbol.ParseRefKind(k)
		if !ok {
			return role{}, fmt.Errorf("capture @%s: unknown reference kind %q", name, k)
		}
		return role{kind: roleReference, ref: kind}, nil
	}
	return role{}, fmt.Errorf("capture @%s is not part of the query contract (see lang/doc.go)", name)
}
