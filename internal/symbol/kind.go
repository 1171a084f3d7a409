package symbol

import "fmt"

// Kind is what a definition is. The zero Kind is Unknown.
type Kind uint8

// The kinds, in the order of their stored codes: append only, never reorder.
const (
	Unknown Kind = iota
	Function
	Method
	Constructor
	Class
	Struct
	Interface
	Trait
	Enum
	EnumMember
	Union
	Type // alias, typedef, type member
	Constant
	Variable
	Field
	Property
	Module
	Namespace
	Macro
	numKinds
)

var kindNames = [numKinds]string{
	Unknown:     "unknown",
	Function:    "function",
	Method:      "method",
	Constructor: "constructor",
	Class:       "class",
	Struct:      "struct",
	Interface:   "interface",
	Trait:       "trait",
	Enum:        "enum",
	EnumMember:  "enum_member",
	Union:       "union",
	Type:        "type",
	Constant:    "constant",
	Variable:    "variable",
	Field:       "field",
	Property:    "property",
	Module:      "module",
	Namespace:   "namespace",
	Macro:       "macro",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// ParseKind returns the Kind named s.
func ParseKind(s string) (Kind, bool) {
	for k, name := range kindNames {
		if name == s {
			return Kind(k), true
		}
	}
	return Unknown, false
}

// Kinds lists every known kind except Unknown.
func Kinds() []Kind {
	ks := make([]Kind, 0, numKinds-1)
	for k := Kind(1); k < numKinds; k++ {
		ks = append(ks, k)
	}
	return ks
}

// IsType reports whether k declares a type that can contain members.
func (k Kind) IsType() bool {
	switch k {
	case Class, Struct, Interface, Trait, Enum, Union:
		return true
	}
	return false
}

// IsCallable reports whether k is something that is called.
func (k Kind) IsCallable() bool {
	switch k {
	case Function, Method, Constructor, Macro:
		return true
	}
	return false
}

func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

func (k *Kind) UnmarshalText(b []byte) error {
	v, ok := ParseKind(string(b))
	if !ok {
		return fmt.Errorf("unknown symbol kind %q", b)
	}
	*k = v
	return nil
}

// Visibility says who can use a definition, as its language defines it.
type Visibility uint8

const (
	Public Visibility = iota
	Private
	Protected
	Internal // package, module or assembly scope
)

var visNames = [...]string{Public: "public", Private: "private", Protected: "protected", Internal: "internal"}

func (v Visibility) String() string {
	if int(v) < len(visNames) {
		return visNames[v]
	}
	return fmt.Sprintf("visibility(%d)", v)
}

func (v Visibility) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

func (v *Visibility) UnmarshalText(b []byte) error {
	for i, name := range visNames {
		if name == string(b) {
			*v = Visibility(i)
			return nil
		}
	}
	return fmt.Errorf("unknown visibility %q", b)
}

// RefKind is how a name is used.
type RefKind uint8

const (
	RefName   RefKind = iota // any other identifier use
	RefCall                  // called: f(), obj.m()
	RefType                  // used as a type, base class or annotation
	RefMember                // attribute or field access: obj.attr
)

var refNames = [...]string{RefName: "name", RefCall: "call", RefType: "type", RefMember: "member"}

func (k RefKind) String() string {
	if int(k) < len(refNames) {
		return refNames[k]
	}
	return fmt.Sprintf("ref(%d)", k)
}

// ParseRefKind returns the RefKind named s.
func ParseRefKind(s string) (RefKind, bool) {
	for i, name := range refNames {
		if name == s {
			return RefKind(i), true
		}
	}
	return RefName, false
}

func (k RefKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

func (k *RefKind) UnmarshalText(b []byte) error {
	v, ok := ParseRefKind(string(b))
	if !ok {
		return fmt.Errorf("unknown reference kind %q", b)
	}
	*k = v
	return nil
}
