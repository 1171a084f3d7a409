package tokens

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	fit   = flag.Bool("fit", false, "refit the estimator's coefficients against testdata/corpus and print them")
	ridge = flag.Float64("ridge", 1e-4, "strength of the pull toward 1 token per piece, for -fit")
)

// Calibration tolerances, from the package's accuracy target.
const (
	maxTotalError  = 0.05 // |estimate/exact - 1| over each corpus class
	maxSampleError = 0.10 // mean |estimate/exact - 1| over a class's samples
	sampleBytes    = 256  // samples are whole lines adding up to at least this
	minSampleBytes = 200  // the tail of a file shorter than this is dropped
)

// corpusClasses are the subdirectories of testdata/corpus.
var corpusClasses = []string{"go", "python", "json", "prose", "logs", "i18n"}

// A corpusFile is one file of the calibration corpus.
type corpusFile struct {
	class, name, text string
}

func loadCorpus(t testing.TB) []corpusFile {
	t.Helper()
	var files []corpusFile
	for _, class := range corpusClasses {
		dir := filepath.Join("testdata", "corpus", class)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("read corpus: %v", err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatalf("read corpus: %v", err)
			}
			files = append(files, corpusFile{class: class, name: e.Name(), text: string(b)})
		}
	}
	return files
}

// chunk splits text into samples of whole lines of at least size bytes,
// dropping a tail shorter than minSampleBytes.
func chunk(text string, size int) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && i+1-start >= size {
			out = append(out, text[start:i+1])
			start = i + 1
		}
	}
	if len(text)-start >= minSampleBytes {
		out = append(out, text[start:])
	}
	return out
}

// A measured text has its exact count and its features.
type measured struct {
	class string
	exact int
	f     features
}

// measureAll counts texts exactly under enc, in parallel.
func measureAll(t testing.TB, enc Encoding, classes, texts []string) []measured {
	t.Helper()
	c, err := Exact(enc)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]measured, len(texts))
	var wg sync.WaitGroup
	for i, text := range texts {
		wg.Go(func() {
			out[i] = measured{class: classes[i], exact: c.Count(text), f: measure(text)}
		})
	}
	wg.Wait()
	return out
}

// A classError is the estimator's error on one corpus class.
type classError struct {
	class        string
	exact, est   int     // totals over the class's files
	total        float64 // est/exact - 1
	sample       float64 // mean |est/exact - 1| over the class's samples
	samples      int
	worstSample  float64
	bytes, files int
}

func (e classError) String() string {
	return fmt.Sprintf("%-7s %7d B %2d files  exact %6d  est %6d  total %+5.1f%%  mean |sample| %4.1f%% (%d samples, worst %4.1f%%)",
		e.class, e.bytes, e.files, e.exact, e.est, 100*e.total, 100*e.sample, e.samples, 100*e.worstSample)
}

// corpusSet is the corpus measured under one encoding: whole files for the
// totals and sampleBytes-sized samples for the per-sample error.
type corpusSet struct {
	files, samples []measured
	bytes          map[string]int
}

func measureCorpus(t testing.TB, enc Encoding, corpus []corpusFile, size int) corpusSet {
	t.Helper()
	var fileClasses, fileTexts, sampleClasses, sampleTexts []string
	set := corpusSet{bytes: map[string]int{}}
	for _, cf := range corpus {
		fileClasses = append(fileClasses, cf.class)
		fileTexts = append(fileTexts, cf.text)
		set.bytes[cf.class] += len(cf.text)
		for _, s := range chunk(cf.text, size) {
			sampleClasses = append(sampleClasses, cf.class)
			sampleTexts = append(sampleTexts, s)
		}
	}
	set.files = measureAll(t, enc, fileClasses, fileTexts)
	set.samples = measureAll(t, enc, sampleClasses, sampleTexts)
	return set
}

func estimate(w *weights, f features) int {
	return Estimator{w: w}.countFeatures(f)
}

func (set corpusSet) errors(w *weights) []classError {
	var out []classError
	for _, class := range corpusClasses {
		e := classError{class: class, bytes: set.bytes[class]}
		for _, m := range set.files {
			if m.class == class {
				e.files++
				e.exact += m.exact
				e.est += estimate(w, m.f)
			}
		}
		e.total = float64(e.est)/float64(e.exact) - 1
		for _, m := range set.samples {
			if m.class == class {
				r := math.Abs(float64(estimate(w, m.f))/float64(m.exact) - 1)
				e.sample += r
				e.worstSample = max(e.worstSample, r)
				e.samples++
			}
		}
		e.sample /= float64(e.samples)
		out = append(out, e)
	}
	return out
}

// TestCalibration checks the estimator against exact counts on the corpus,
// per class and encoding. Run with -v to see the table doc.go quotes.
func TestCalibration(t *testing.T) {
	corpus := loadCorpus(t)
	for _, enc := range []Encoding{O200k, CL100k} {
		t.Run(string(enc), func(t *testing.T) {
			set := measureCorpus(t, enc, corpus, sampleBytes)
			for _, e := range set.errors(NewEstimator(enc).w) {
				t.Log(e)
				if math.Abs(e.total) > maxTotalError {
					t.Errorf("%s: total error %+.1f%%, want within ±%.0f%%", e.class, 100*e.total, 100*maxTotalError)
				}
				if e.sample > maxSampleError {
					t.Errorf("%s: mean sample error %.1f%%, want at most %.0f%%", e.class, 100*e.sample, 100*maxSampleError)
				}
			}
		})
	}
}

// TestFitEstimator refits the coefficients and prints them as Go source for
// estimate.go, with the errors they achieve:
//
//	go test ./internal/tokens -run TestFitEstimator -fit -v
//
// The fit is a class-balanced least-squares fit of the relative error on
// samples of several sizes, with coefficients held non-negative, solved by
// coordinate descent on the normal equations.
func TestFitEstimator(t *testing.T) {
	if !*fit {
		t.Skip("pass -fit to refit the estimator")
	}
	corpus := loadCorpus(t)
	for _, enc := range []Encoding{O200k, CL100k} {
		var train []measured
		for _, size := range []int{sampleBytes, 1024, 4096} {
			train = append(train, measureCorpus(t, enc, corpus, size).samples...)
		}
		w := fitWeights(train)
		t.Logf("%s:\n%s", enc, formatWeights(&w))
		for _, e := range measureCorpus(t, enc, corpus, sampleBytes).errors(&w) {
			t.Log(e)
		}
	}
}

func fitWeights(train []measured) weights {
	perClass := map[string]float64{}
	for _, m := range train {
		perClass[m.class]++
	}
	// Normal equations of sum_i c_i (f_i·w - y_i)^2 with c_i = 1/(y_i^2 n_class):
	// every class weighs the same and each sample's error is relative.
	var g [numFeatures][numFeatures]float64
	var h [numFeatures]float64
	for _, m := range train {
		if m.exact == 0 {
			continue
		}
		y := float64(m.exact)
		c := 1 / (y * y * perClass[m.class])
		for a := range numFeatures {
			fa := float64(m.f[a])
			h[a] += c * fa * y
			for b := range numFeatures {
				g[a][b] += c * fa * float64(m.f[b])
			}
		}
	}
	// A weak ridge term pulls coefficients the corpus barely determines
	// (emoji, scripts with a few hundred characters) toward one token per
	// piece; it is too weak to move the frequent ones.
	for a := range numFeatures {
		g[a][a] += *ridge
		h[a] += *ridge
	}
	var w weights
	for range 20000 {
		for a := range numFeatures {
			if g[a][a] == 0 {
				continue
			}
			grad := -h[a]
			for b := range numFeatures {
				grad += g[a][b] * w[b]
			}
			w[a] = max(0, w[a]-grad/g[a][a])
		}
	}
	for a := range w {
		w[a] = math.Round(w[a]*1000) / 1000
	}
	return w
}

var featureNames = [numFeatures]string{
	"fWord3", "fWord6", "fWord9", "fWord12", "fWordLong", "fLongLetters", "fUpperWord", "fUpperLower",
	"fDigitGroup", "fSpace", "fBreak", "fBreakAfterPunct",
	"fPunctPrefix", "fPunctRun", "fPunctExtra",
	"fRuneLatin", "fRuneGreek", "fRuneCyrillic", "fRuneRTL", "fRunePunct", "fRuneSymbol", "fRuneCJK", "fRuneHangul", "fRuneOther", "fRune4",
}

func formatWeights(w *weights) string {
	var lines []string
	for a, v := range w {
		lines = append(lines, fmt.Sprintf("\t%s: %.3f,", featureNames[a], v))
	}
	return strings.Join(lines, "\n")
}
