package localize

import (
	"maps"
	"slices"
)

// A Stratum is the subset of instances that share a trait.
type Stratum struct {
	Name   string  `json:"name"`
	N      int     `json:"n"`
	FileN  int     `json:"file_n"` // of which with an existing gold file
	FuncN  int     `json:"function_n"`
	File1  float64 `json:"file_acc1"`
	File5  float64 `json:"file_acc5"`
	Func10 float64 `json:"function_acc10"`
}

// strata splits the instances by repository and by the cues of their
// issue texts (see cues.go).
func strata(ss []scored) []Stratum {
	var out []Stratum
	repos := make(map[string]bool)
	for _, s := range ss {
		repos[s.in.Repo] = true
	}
	for _, repo := range slices.Sorted(maps.Keys(repos)) {
		out = append(out, stratum("repo "+repo, ss, func(s *scored) bool { return s.in.Repo == repo }))
	}
	cues := []struct {
		name string
		has  func(*scored) bool
	}{
		{"names a gold file", func(s *scored) bool { return s.namesFile }},
		{"names a gold function", func(s *scored) bool { return s.namesFunc }},
		{"has a traceback", func(s *scored) bool { return s.traceback }},
	}
	for _, c := range cues {
		out = append(out,
			stratum(c.name+": yes", ss, c.has),
			stratum(c.name+": no", ss, func(s *scored) bool { return !c.has(s) }))
	}
	return out
}

func stratum(name string, ss []scored, in func(*scored) bool) Stratum {
	var all, files, funcs []*scored
	for i := range ss {
		s := &ss[i]
		if !in(s) {
			continue
		}
		all = append(all, s)
		if s.files {
			files = append(files, s)
		}
		if s.funcs {
			funcs = append(funcs, s)
		}
	}
	return Stratum{
		Name:   name,
		N:      len(all),
		FileN:  len(files),
		FuncN:  len(funcs),
		File1:  rate(files, func(s *scored) bool { return s.fileAcc[1] }),
		File5:  rate(files, func(s *scored) bool { return s.fileAcc[5] }),
		Func10: rate(funcs, func(s *scored) bool { return s.funcAcc[10] }),
	}
}
