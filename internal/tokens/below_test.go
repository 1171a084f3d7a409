package tokens

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWeightsNonNegative holds the calibrations to what CountBelow relies
// on: a piece never lowers a count.
func TestWeightsNonNegative(t *testing.T) {
	for name, w := range map[string]*weights{"o200k": &o200kWeights, "cl100k": &cl100kWeights} {
		for k, x := range w {
			if x < 0 {
				t.Errorf("%s weight %d is %v, negative", name, k, x)
			}
		}
	}
}

// checkBelow holds CountBelow to Count on text for limits around its
// count.
func checkBelow(t *testing.T, text string) {
	t.Helper()
	for _, e := range []Estimator{{}, NewEstimator(CL100k)} {
		want := e.Count(text)
		for _, limit := range []int{-1, 0, 1, 2, want / 2, want - 1, want, want + 1, 2 * want} {
			n, ok := e.CountBelow(text, limit)
			if ok != (want < limit) || ok && n != want {
				t.Fatalf("CountBelow(%.40q, %d) = %d, %v; Count = %d", text, limit, n, ok, want)
			}
		}
	}
}

// FuzzCountBelow holds CountBelow to Count on the fuzzed text, repeated
// past the stride at which CountBelow checks its limit.
func FuzzCountBelow(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data[:min(len(data), 4096)]))
	}
	for _, tt := range referenceCounts {
		f.Add(tt.text)
	}
	f.Add("a b\tc \t( x\n  y ,\n z 1 \t1  \"q\":  \"w\" \xff\xfe\xc3(\xe2\x82 aB Ab ABc É")
	f.Fuzz(func(t *testing.T, text string) {
		checkBelow(t, text)
		if text != "" {
			checkBelow(t, strings.Repeat(text, belowStride/len(text)+2))
		}
	})
}

// TestCountBelowCorpus holds CountBelow to Count on every corpus file.
func TestCountBelowCorpus(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkBelow(t, string(data))
	}
}
