package retrieve

// Builtins: the index records a use by its name alone, f() and obj.f()
// alike, so a use in Python code of a builtin (id(e), set(),
// isinstance(x, str)) reads as a use of every definition of the project
// with that name. Followed by name from the leading file's anchors
// (delegate) or from the tests (test votes), id(e) and set() in
// pytest's FormattedExcinfo.repr_excinfo reached CallSpec2.id and
// Cache.set and lifted python.py and cacheprovider.py over the
// reports.py the fix of pytest-5787 is in. The names below are Python's
// builtin functions and types that a project rarely defines as a
// method called on its own objects; sum, min, max, round, copy, format
// and the like are left out, since xarray's and sympy's methods of those
// names are called on objects all the time.
var pythonBuiltins = map[string]bool{
	"id": true, "set": true, "len": true, "isinstance": true, "issubclass": true,
	"getattr": true, "setattr": true, "hasattr": true, "delattr": true, "repr": true,
	"str": true, "int": true, "float": true, "bool": true, "list": true, "dict": true,
	"tuple": true, "type": true, "super": true, "iter": true, "next": true, "open": true,
	"print": true, "sorted": true, "enumerate": true, "zip": true, "range": true,
	"callable": true, "vars": true, "dir": true, "hash": true, "ord": true, "chr": true,
	"frozenset": true, "object": true, "property": true, "bytes": true,
}

// builtinUse reports whether a use of name inside definition d is most
// likely of the language's builtin of that name, which no definition of
// the project is.
func (r *ranker) builtinUse(d int32, name string) bool {
	fi := r.c.defs[d].file
	return fi >= 0 && r.c.files[fi].lang == "python" && pythonBuiltins[name]
}
