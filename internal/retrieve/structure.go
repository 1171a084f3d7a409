package retrieve

import (
	"math"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/symbol"
)

// structure is what ranking knows of a corpus beyond its text: which
// files are vendored copies, which definitions dispatch on a class name
// inside their own name, and how broad each file's vocabulary is. It is
// derived from the persisted fields of a corpus (files, definitions,
// the file text index) and does not depend on Params, so it is
// computed wherever a corpus is made, loaded or built (deriveStructure).
type structure struct {
	vendored []bool             // per file: a copy of another project (requests/packages/urllib3, _vendor, externals)
	breadth  []float64          // per file: ln of its distinct terms over the corpus median's; ≥ 0
	dispatch map[string][]int32 // lower-case class name → definitions named for it (_print_Sum, visit_Tuple, convert_X)
	dir      []int32            // per file: its directory, numbered from 0 (siblingLift)
	ndirs    int                // how many directories dir numbers
	// defFile is, per definition, its file (defs[d].file), laid out
	// densely: the loops of a ranking over every definition read nothing
	// else of it, and a definition's entry is two cache lines.
	defFile []int32
	// defKind is, per definition, its kind, likewise.
	defKind []symbol.Kind
}

// deriveStructure computes c.structure. It reads c.files, c.defs and
// c.fileText, and runs after they are complete.
func (c *corpus) deriveStructure() {
	s := structure{
		vendored: make([]bool, len(c.files)),
		dispatch: make(map[string][]int32),
	}
	s.dir = make([]int32, len(c.files))
	dirs := make(map[string]int32)
	for i := range c.files {
		s.vendored[i] = isVendoredPath(c.files[i].path)
		d := path.Dir(c.files[i].path)
		n, ok := dirs[d]
		if !ok {
			n = int32(len(dirs))
			dirs[d] = n
		}
		s.dir[i] = n
	}
	s.ndirs = len(dirs)
	s.defFile = make([]int32, len(c.defs))
	s.defKind = make([]symbol.Kind, len(c.defs))
	for d := range c.defs {
		def := &c.defs[d]
		s.defFile[d], s.defKind[d] = def.file, def.Kind
		if def.file < 0 || !def.Kind.IsCallable() {
			continue
		}
		if class := dispatchClass(def.Name); class != "" {
			key := strings.ToLower(class)
			s.dispatch[key] = append(s.dispatch[key], int32(d))
		}
	}
	s.breadth = fileBreadth(c.fileText, len(c.files))
	c.structure = s
}

// fileBreadth is, per file, how much wider its vocabulary is than the
// median file's: ln(distinct terms / median distinct terms), 0 for a
// file at or below the median. A file that holds a bit of everything
// matches every task's common words.
func fileBreadth(b bm25, n int) []float64 {
	distinct := make([]float64, n)
	for t := range b.df {
		var prev int32 = -1
		for _, p := range b.entries[b.start[t]:b.start[t+1]] {
			if p.doc != prev && int(p.doc) < n {
				distinct[p.doc]++
				prev = p.doc
			}
		}
	}
	sorted := slices.Clone(distinct)
	slices.Sort(sorted)
	out := make([]float64, n)
	if n == 0 {
		return out
	}
	median := max(sorted[n/2], 1)
	for i, v := range distinct {
		out[i] = max(0, math.Log(v/median))
	}
	return out
}

// dispatchClass returns the class name a method's name dispatches on,
// by the conventions of printers, visitors and converters:
// "_print_Sum" → "Sum", "visit_Call" → "Call", "convert_Tuple" → "Tuple",
// "_sympystr" → "". The name must end in "_" and a capitalised word (a
// class name); "visit_call" and "_eval_is_positive" are ordinary names.
func dispatchClass(name string) string {
	i := strings.LastIndexByte(name, '_')
	if i <= 0 || i == len(name)-1 {
		return ""
	}
	class := name[i+1:]
	r, _ := utf8.DecodeRuneInString(class)
	if !unicode.IsUpper(r) || len(class) < 2 {
		return ""
	}
	return class
}

// vendoredDirs hold copies of other projects, which a project's own
// fixes rarely touch: the fix is usually in the caller.
var vendoredDirs = []string{"_vendor", "vendor", "vendored", "externals", "extern", "third_party", "thirdparty", "_vendored"}

// isVendoredPath reports a file inside a vendored copy: a vendoredDirs
// directory, or a package's own "packages" directory
// (requests/packages/urllib3/exceptions.py; Python only, since
// JavaScript monorepos keep their own code in packages/).
func isVendoredPath(p string) bool {
	if hasDir(p, vendoredDirs...) {
		return true
	}
	dir := path.Dir(p)
	for dir != "." && dir != "/" && dir != "" {
		if path.Base(dir) == "packages" && path.Dir(dir) != "." && path.Ext(p) == ".py" {
			return true
		}
		dir = path.Dir(dir)
	}
	return false
}
