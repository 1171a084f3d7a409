package localize

import "testing"

func TestNormalize(t *testing.T) {
	tests := []struct{ id, want, module string }{
		{"a.py:Foo.__init__", "a.py:Foo", "a.py:Foo"},
		{"a.py:Outer.Inner.__init__", "a.py:Outer.Inner", "a.py:Outer"},
		{"a.py:Foo.method", "a.py:Foo.method", "a.py:Foo"},
		{"a.py:__init__", "a.py:__init__", "a.py:__init__"}, // a module-level function, not a constructor
		{"a.py:Foo.__init__x", "a.py:Foo.__init__x", "a.py:Foo"},
		{"c:/w/a.py:f", "c:/w/a.py:f", "c:/w/a.py:f"},
	}
	for _, tt := range tests {
		if got := normalize(tt.id); got != tt.want {
			t.Errorf("normalize(%s) = %s, want %s", tt.id, got, tt.want)
		}
		if got := moduleOf(normalize(tt.id)); got != tt.module {
			t.Errorf("moduleOf(%s) = %s, want %s", tt.id, got, tt.module)
		}
	}
}

func TestGoldInContext(t *testing.T) {
	in := Instance{EditFunctions: []string{"a.py:Foo.__init__", "a.py:bar", "b.py:Baz.run", "b.py:Baz.stop"}}
	tests := []struct {
		name  string
		cards []Card
		want  float64
	}{
		{"none", nil, 0},
		{"class card holds its constructor", []Card{{Path: "a.py", Name: "Foo", Full: true}}, 0.25},
		{"constructor card", []Card{{Path: "a.py", Name: "Foo.__init__", Full: true}}, 0.25},
		{"signature only", []Card{{Path: "a.py", Name: "bar"}, {Path: "b.py", Name: "Baz.run"}}, 0},
		{"other file", []Card{{Path: "c.py", Name: "bar", Full: true}}, 0},
		{"three of four", []Card{
			{Path: "a.py", Name: "bar", Full: true},
			{Path: "b.py", Name: "Baz.run", Full: true},
			{Path: "b.py", Name: "Baz.stop", Full: true},
			{Path: "b.py", Name: "Baz.stop", Full: true},
		}, 0.75},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GoldInContext(in, tt.cards); got != tt.want {
				t.Errorf("GoldInContext = %v, want %v", got, tt.want)
			}
		})
	}
	if got := GoldInContext(Instance{}, []Card{{Path: "a.py", Name: "f", Full: true}}); got != 0 {
		t.Errorf("GoldInContext without gold = %v, want 0", got)
	}
}

func TestNamesFile(t *testing.T) {
	tests := []struct {
		name, text string
		files      []string
		want       bool
	}{
		{"basename", "see models.py line 3", []string{"requests/models.py"}, true},
		{"path in a frame", `File "/x/site-packages/requests/models.py", line 3`, []string{"requests/models.py"}, true},
		{"dotted", "from requests.models import Response", []string{"requests/models.py"}, true},
		{"dotted, then an attribute", "requests.models.Response is wrong", []string{"requests/models.py"}, true},
		{"src layout", "in _pytest.python the fixture", []string{"src/_pytest/python.py"}, true},
		{"package", "import sympy.core fails", []string{"sympy/core/__init__.py"}, true},
		{"package path", "edit sympy/core/__init__.py", []string{"sympy/core/__init__.py"}, true},
		{"any __init__.py", "my __init__.py is empty", []string{"sympy/core/__init__.py"}, false},
		{"one-part module", "the requests module", []string{"requests/__init__.py"}, false},
		{"glued on the left", "metadata.py is fine", []string{"pkg/data.py"}, false},
		{"glued on the right", "models.pyc is stale", []string{"requests/models.py"}, false},
		{"second occurrence", "xdata.py and data.py", []string{"pkg/data.py"}, true},
		{"no gold file", "models.py", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := namesFile(tt.text, tt.files); got != tt.want {
				t.Errorf("namesFile(%q, %q) = %v, want %v", tt.text, tt.files, got, tt.want)
			}
		})
	}
}

func TestNamesFunction(t *testing.T) {
	tests := []struct {
		name, text string
		ids        []string
		want       bool
	}{
		{"method", "prepare_url drops the port", []string{"requests/models.py:PreparedRequest.prepare_url"}, true},
		{"call", "x.prepare_url()", []string{"requests/models.py:PreparedRequest.prepare_url"}, true},
		{"class of a constructor", "Session() leaks", []string{normalize("s.py:Session.__init__")}, true},
		{"prefix of a longer name", "the runner hangs", []string{"e.py:run"}, false},
		{"suffix of a longer name", "rerun it", []string{"e.py:run"}, false},
		{"class name alone is not the method", "Baz is slow", []string{"b.py:Baz.run"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := namesFunction(tt.text, tt.ids); got != tt.want {
				t.Errorf("namesFunction(%q, %q) = %v, want %v", tt.text, tt.ids, got, tt.want)
			}
		})
	}
}

func TestHasTraceback(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"CPython header", "Traceback (most recent call last):\n  ...", true},
		{"CPython frame", "  File \"/usr/lib/python3.9/json/__init__.py\", line 357, in loads\n", true},
		{"pytest frame", "src/_pytest/python.py:1234: in pytest_pyfunc_call\n    result = f()\n", true},
		{"pytest error line", "x/test_a.py:12: AssertionError\n", true},
		{"the word alone", "I get a traceback when I call it", false},
		{"a file and line in prose", "see setup.py:12 for the version", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hasTraceback(tt.text); got != tt.want {
				t.Errorf("hasTraceback(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}
