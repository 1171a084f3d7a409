package retrieve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCodeUses(t *testing.T) {
	tests := []struct {
		name string
		task string
		want []codeUse
	}{
		{
			name: "from-import, a fresh instance's method",
			task: "```python\nfrom sympy import Poly\nPoly(x).degree()\n```",
			want: []codeUse{
				{class: "Poly", name: "degree", called: true, weight: weightUseResolved},
				{module: "sympy", name: "Poly", called: true, weight: weightUseResolved},
			},
		},
		{
			name: "a package alias",
			task: "```python\nimport xarray as xr\nxr.where(cond, a, b, keep_attrs=True)\n```",
			want: []codeUse{{module: "xarray", name: "where", called: true, weight: weightUseResolved}},
		},
		{
			name: "a variable bound to a class",
			task: "```\np = Poly(x)\np.all_coeffs()\n```",
			want: []codeUse{
				{name: "Poly", called: true, weight: weightUseBareCall},
				{class: "Poly", name: "all_coeffs", called: true, weight: weightUseResolved},
			},
		},
		{
			name: "a session: output lines are not code, prompts in prose are",
			task: "Look:\n```\n>>> Mod(x, y)\nleft(x)\n```\nand\n>>> lambdify(x, e)\n",
			want: []codeUse{
				{name: "Mod", called: true, weight: weightUseBareCall},
				{name: "lambdify", called: true, weight: weightUseBareCall},
			},
		},
		{
			name: "an import, a method of an unknown receiver, an environment dump",
			task: "```python\nimport requests\nrequests.get(url)\napp.register_blueprint(bp)\nxr.show_versions()\n```",
			want: []codeUse{
				{module: "requests", name: "get", called: true, weight: weightUseResolved},
				{name: "register_blueprint", called: true, weight: weightUseMethod},
			},
		},
		{
			name: "a module imported by name",
			task: "```python\nfrom astropy import units as u\nq = u.Quantity(1)\n```",
			want: []codeUse{{module: "astropy.units", name: "Quantity", called: true, weight: weightUseResolved}},
		},
		{name: "prose only", task: "printing of Sum is wrong"},
		{
			name: "a call in prose",
			task: "when calc Rational('0.5', '100') (in sympy 1.11) the value is 1/100100, but Rational(0.5, half(100)) is right",
			want: []codeUse{
				{name: "Rational", called: true, weight: weightUseBareCall},
				{name: "half", called: true, weight: weightUseBareCall},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseCodeUses(codeOf(tt.task))
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(codeUse{})); diff != "" {
				t.Errorf("parseCodeUses (-want +got):\n%s", diff)
			}
		})
	}
}

// codeRepo is a small package whose code the tasks of TestCodeInTheIssue
// call: an alias of a class, an inherited method that calls an
// overridden one, and a module-level function that a method shares its
// name with.
var codeRepo = map[string]string{
	"pkg/__init__.py": "from .core import Eq, where\n",
	"pkg/a_frame.py": `class Frame:
    def where(self, cond):
        """Keep the rows for which cond is true."""
        return self

    def _eval_as_set(self):
        return None
`,
	"pkg/core.py": `class Base:
    def as_set(self):
        """The set where this holds."""
        return self._eval_as_set()

    def _eval_as_set(self):
        raise NotImplementedError


class Other(Base):
    def _eval_as_set(self):
        """An error: as_set is not defined here."""
        return None


class Relation(Base):
    def _eval_as_set(self):
        return solve_set(self)


Eq = Relation


def solve_set(rel):
    return rel


def where(cond, x, y):
    """Choose from x if cond, else from y."""
    return apply_where(cond, x, y)


def apply_where(cond, x, y):
    return x if cond else y
`,
}

// TestCodeInTheIssue ranks tasks whose code names the API called, and
// asserts that the definitions the calls reach lead, and those of the
// same name they do not reach follow.
func TestCodeInTheIssue(t *testing.T) {
	e := weighted(t, writeTree(t, codeRepo), FeatCode, DefaultParams.Weights[FeatCode])
	tests := []struct {
		name         string
		task         string
		above, below string // above must rank above below
		code         string // a definition whose code feature must be positive
	}{
		{
			name:  "an alias, an inherited method, the override it calls",
			task:  "as_set raises an error\n\n```python\nfrom pkg import Eq\nEq(1, 2).as_set()\n```\n",
			above: "pkg/core.py:Relation._eval_as_set", below: "pkg/core.py:Other._eval_as_set",
			code: "pkg/core.py:Base.as_set",
		},
		{
			name:  "a package alias reaches the module-level function",
			task:  "where drops the attributes\n\n```python\nimport pkg as xr\nxr.where(c, a, b)\n```\n",
			above: "pkg/core.py:where", below: "pkg/a_frame.py:Frame.where",
			code: "pkg/core.py:apply_where",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := e.Rank(t.Context(), tt.task)
			if err != nil {
				t.Fatal(err)
			}
			rank := func(id string) (int, RankedDef) {
				for i, d := range r.Defs {
					if defID(d) == id {
						return i + 1, d
					}
				}
				return 0, RankedDef{}
			}
			a, _ := rank(tt.above)
			b, bd := rank(tt.below)
			if a == 0 || (b != 0 && (a > b || r.Defs[a-1].Score <= bd.Score)) {
				t.Errorf("%s ranks %d, %s ranks %d: want the first strictly above (0 = not ranked); explanation:\n%+v",
					tt.above, a, tt.below, b, explain(r, 5))
			}
			if _, d := rank(tt.code); d.Features[FeatCode] <= 0 {
				t.Errorf("%s: no code feature; explanation:\n%+v", tt.code, explain(r, 8))
			}
		})
	}
}
