package localize

import (
	"fmt"
	"maps"
	"slices"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

// The depths each metric is reported at.
var (
	fileKs     = []int{1, 3, 5, 10}
	moduleKs   = []int{5, 10}
	functionKs = []int{5, 10}
	recallKs   = []int{1, 5, 10, 50}
)

// Report holds the metrics of one run over a dataset. Shares are
// fractions in [0, 1]; WriteText prints them as percentages.
type Report struct {
	Instances int      `json:"instances"`
	Missing   []string `json:"missing,omitempty"` // instances without a result: misses
	Failed    []string `json:"failed,omitempty"`  // results with an error: misses

	// FileRanking and ModuleRanking count the results that ranked files
	// (modules) natively and those whose ranking was derived from their
	// functions.
	FileRanking   Source `json:"file_ranking"`
	ModuleRanking Source `json:"module_ranking"`

	File     Level `json:"file"`
	Module   Level `json:"module"`
	Function Level `json:"function"`

	Recall []AtK    `json:"function_recall"`
	MRR    float64  `json:"function_mrr"`
	Budget []Budget `json:"budget_recall,omitempty"`

	ContextTokens Summary `json:"context_tokens"`
	LatencyMS     Summary `json:"latency_ms"` // warm queries
	IndexMS       Summary `json:"index_ms"`   // trees built in the run
	// Indexes counts the results by the tier of the index they ranked
	// on (quick, full); results of older runs say none.
	Indexes map[string]int `json:"indexes,omitempty"`

	Strata []Stratum `json:"strata"`
}

// Source counts where the results' rankings at one level came from.
type Source struct {
	Native  int `json:"native"`
	Derived int `json:"derived"`
}

// Level holds Acc@k at one level: files, modules or functions.
type Level struct {
	N        int   `json:"n"`        // instances scored
	Excluded int   `json:"excluded"` // instances without gold at this level
	Acc      []AtK `json:"acc"`
}

// AtK is a metric's value at depth K.
type AtK struct {
	K     int     `json:"k"`
	Value float64 `json:"value"`
}

// Budget is the budgeted-context recall at one token budget.
type Budget struct {
	Tokens   int     `json:"tokens"`
	N        int     `json:"n"`        // instances with gold functions
	Reported int     `json:"reported"` // of those, results that reported this budget
	Recall   float64 `json:"recall"`
}

// Summary describes a set of measurements; percentiles are nearest-rank.
type Summary struct {
	N    int     `json:"n"`
	Sum  float64 `json:"sum"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	Max  float64 `json:"max"`
}

// scored is one instance's outcome.
type scored struct {
	in              Instance
	hasResult, okay bool // okay: a result without an error
	files, funcs    bool // gold exists at the level
	fileAcc         map[int]bool
	moduleAcc       map[int]bool
	funcAcc         map[int]bool
	recall          map[int]float64
	rr              float64         // reciprocal rank of the first gold function
	budget          map[int]float64 // the result's budget recall

	nativeFiles, nativeModules bool

	namesFile, namesFunc, traceback bool // the strata cues
}

// Score computes the report of results against instances. Every result
// must name an instance; an instance without a result counts as a miss.
// exists tells which gold files exist at the base commit; nil means all
// of them do.
func Score(instances []Instance, results []Result, exists Exists) (*Report, error) {
	byID := make(map[string]*Result, len(results))
	known := make(map[string]bool, len(instances))
	for _, in := range instances {
		known[in.ID] = true
	}
	for i := range results {
		r := &results[i]
		if !known[r.ID] {
			return nil, fmt.Errorf("result for %s: no such instance in the dataset", r.ID)
		}
		if byID[r.ID] != nil {
			return nil, fmt.Errorf("result for %s: given twice", r.ID)
		}
		byID[r.ID] = r
	}
	ss := make([]scored, 0, len(instances))
	for _, in := range instances {
		goldFiles, err := existingGold(in, exists)
		if err != nil {
			return nil, err
		}
		ss = append(ss, score(in, goldFiles, byID[in.ID]))
	}
	return aggregate(ss, results), nil
}

// existingGold are in's gold files that exist at its base commit.
func existingGold(in Instance, exists Exists) ([]string, error) {
	var gold []string
	for _, f := range dedup(in.GoldFiles, identity) {
		ok := true
		if exists != nil {
			var err error
			if ok, err = exists(in, f); err != nil {
				return nil, fmt.Errorf("gold file %s of %s: %w", f, in.ID, err)
			}
		}
		if ok {
			gold = append(gold, f)
		}
	}
	return gold, nil
}

// score scores r, nil when missing, against in.
func score(in Instance, goldFiles []string, r *Result) scored {
	s := scored{in: in, hasResult: r != nil, okay: r != nil && r.Error == ""}
	goldFuncs := goldFunctions(in)
	s.files, s.funcs = len(goldFiles) > 0, len(goldFuncs) > 0
	text := in.ProblemStatement
	s.namesFile, s.namesFunc, s.traceback = namesFile(text, goldFiles), namesFunction(text, goldFuncs), hasTraceback(text)

	var funcs, files, modules []string
	if s.okay {
		funcs, files, modules = rankings(r)
		s.nativeFiles, s.nativeModules = len(r.FoundFiles) > 0, len(r.FoundModules) > 0
		s.budget = r.BudgetRecall
	}
	s.fileAcc = accAt(files, goldFiles, fileKs)
	s.moduleAcc = accAt(modules, dedup(goldFuncs, moduleOf), moduleKs)
	s.funcAcc = accAt(funcs, goldFuncs, functionKs)
	s.recall = make(map[int]float64, len(recallKs))
	for _, k := range recallKs {
		s.recall[k] = share(head(funcs, k), goldFuncs)
	}
	if i := slices.IndexFunc(funcs, set(goldFuncs).has); i >= 0 {
		s.rr = 1 / float64(i+1)
	}
	return s
}

// rankings are r's deduplicated function, file and module rankings, the
// last two native when r has them and derived from the first otherwise.
func rankings(r *Result) (funcs, files, modules []string) {
	funcs = dedup(r.FoundEntities, normalize)
	files = dedup(funcs, fileOf)
	if len(r.FoundFiles) > 0 {
		files = dedup(r.FoundFiles, identity)
	}
	modules = dedup(funcs, moduleOf)
	if len(r.FoundModules) > 0 {
		modules = dedup(r.FoundModules, func(m string) string { return moduleOf(normalize(m)) })
	}
	return funcs, files, modules
}

// accAt reports, for each k, whether the top k of ranking holds
// min(|gold|, k) gold items. The ranking must be deduplicated.
func accAt(ranking, gold []string, ks []int) map[int]bool {
	acc := make(map[int]bool, len(ks))
	g := set(gold)
	for _, k := range ks {
		n := 0
		for _, it := range head(ranking, k) {
			if g.has(it) {
				n++
			}
		}
		acc[k] = len(gold) > 0 && n >= min(len(gold), k)
	}
	return acc
}

// share is the fraction of gold that top holds.
func share(top, gold []string) float64 {
	if len(gold) == 0 {
		return 0
	}
	t := set(top)
	n := 0
	for _, g := range gold {
		if t.has(g) {
			n++
		}
	}
	return float64(n) / float64(len(gold))
}

func head(s []string, k int) []string { return s[:min(k, len(s))] }

type stringSet map[string]bool

func set(items []string) stringSet {
	s := make(stringSet, len(items))
	for _, it := range items {
		s[it] = true
	}
	return s
}

func (s stringSet) has(it string) bool { return s[it] }

func aggregate(ss []scored, results []Result) *Report {
	rep := &Report{Instances: len(ss)}
	var fileSet, funcSet []*scored
	for i := range ss {
		s := &ss[i]
		switch {
		case !s.hasResult:
			rep.Missing = append(rep.Missing, s.in.ID)
		case !s.okay:
			rep.Failed = append(rep.Failed, s.in.ID)
		default:
			count(&rep.FileRanking, s.nativeFiles)
			count(&rep.ModuleRanking, s.nativeModules)
		}
		if s.files {
			fileSet = append(fileSet, s)
		}
		if s.funcs {
			funcSet = append(funcSet, s)
		}
	}
	rep.File = level(fileSet, len(ss), fileKs, func(s *scored) map[int]bool { return s.fileAcc })
	rep.Module = level(funcSet, len(ss), moduleKs, func(s *scored) map[int]bool { return s.moduleAcc })
	rep.Function = level(funcSet, len(ss), functionKs, func(s *scored) map[int]bool { return s.funcAcc })
	for _, k := range recallKs {
		rep.Recall = append(rep.Recall, AtK{k, mean(funcSet, func(s *scored) float64 { return s.recall[k] })})
	}
	rep.MRR = mean(funcSet, func(s *scored) float64 { return s.rr })
	rep.Budget = budgets(funcSet, results)
	rep.ContextTokens, rep.LatencyMS, rep.IndexMS = measurements(results)
	for _, r := range results {
		if r.Index != "" {
			if rep.Indexes == nil {
				rep.Indexes = make(map[string]int)
			}
			rep.Indexes[r.Index]++
		}
	}
	rep.Strata = strata(ss)
	return rep
}

func count(src *Source, native bool) {
	if native {
		src.Native++
	} else {
		src.Derived++
	}
}

func level(group []*scored, all int, ks []int, acc func(*scored) map[int]bool) Level {
	l := Level{N: len(group), Excluded: all - len(group)}
	for _, k := range ks {
		l.Acc = append(l.Acc, AtK{k, rate(group, func(s *scored) bool { return acc(s)[k] })})
	}
	return l
}

// budgets reports the recall at every budget some result reported.
func budgets(funcSet []*scored, results []Result) []Budget {
	tokens := make(map[int]bool)
	for _, r := range results {
		for b := range r.BudgetRecall {
			tokens[b] = true
		}
	}
	var out []Budget
	for _, b := range slices.Sorted(maps.Keys(tokens)) {
		given := 0
		for _, s := range funcSet {
			if _, ok := s.budget[b]; ok {
				given++
			}
		}
		out = append(out, Budget{Tokens: b, N: len(funcSet), Reported: given,
			Recall: mean(funcSet, func(s *scored) float64 { return s.budget[b] })})
	}
	return out
}

// measurements summarise the context sizes and query latencies of the
// results without error, and the index times of the trees built.
func measurements(results []Result) (tokens, latency, index Summary) {
	var ts, ls, is []float64
	for _, r := range results {
		if r.IndexMS > 0 {
			is = append(is, r.IndexMS)
		}
		if r.Error != "" {
			continue
		}
		ts = append(ts, float64(r.ContextTokens))
		ls = append(ls, r.LatencyMS)
	}
	return summarize(ts), summarize(ls), summarize(is)
}

func summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := slices.Sorted(slices.Values(xs))
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return Summary{
		N:    len(s),
		Sum:  sum,
		Mean: sum / float64(len(s)),
		P50:  s[measure.Rank(len(s), 50)],
		P95:  s[measure.Rank(len(s), 95)],
		Max:  s[len(s)-1],
	}
}

func rate(group []*scored, hit func(*scored) bool) float64 {
	return mean(group, func(s *scored) float64 {
		if hit(s) {
			return 1
		}
		return 0
	})
}

func mean(group []*scored, v func(*scored) float64) float64 {
	if len(group) == 0 {
		return 0
	}
	sum := 0.0
	for _, s := range group {
		sum += v(s)
	}
	return sum / float64(len(group))
}
