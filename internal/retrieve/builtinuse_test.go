package retrieve

import (
	"testing"

	"github.com/winnowhq/winnow/internal/index"
)

func TestBuiltinUse(t *testing.T) {
	c := &corpus{
		files: []fileEntry{{path: "src/_pytest/_code/code.py", lang: "python"}, {path: "lib/set.go", lang: "go"}},
		defs:  []defEntry{{Brief: index.Brief{Name: "repr_excinfo"}, file: 0}, {Brief: index.Brief{Name: "Walk"}, file: 1}},
	}
	r := &ranker{c: c}
	tests := []struct {
		name string
		d    int32
		use  string
		want bool
	}{
		{"python builtin call", 0, "id", true},
		{"python builtin type", 0, "set", true},
		{"python method name", 0, "getrepr", false},
		{"a builtin sympy and xarray define as methods", 0, "sum", false},
		{"not python", 1, "set", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.builtinUse(tc.d, tc.use); got != tc.want {
				t.Errorf("builtinUse(%d, %q) = %v, want %v", tc.d, tc.use, got, tc.want)
			}
		})
	}
}
