package tokens

import (
	"encoding/binary"
	"math/bits"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The estimator's pass as it was before its fast paths, kept as the
// reference FuzzMeasure holds measure to: the features, and so every
// estimate, must not change.

// measure counts the pieces of s in one pass.
func measureRef(s string) (f features) {
	afterPunct := false // punctuation ends right before s[i]
	for i := 0; i < len(s); {
		switch byteClass[s[i]] {
		case cLower, cUpper, cHigh:
			i = measureWordRef(s, i, &f)
			afterPunct = false
		case cDigit:
			j := i + 1
			for j < len(s) && byteClass[s[j]] == cDigit {
				j++
			}
			f[fDigitGroup] += (j - i + 2) / 3
			i = j
			afterPunct = false
		case cSpace, cNewline:
			i = measureSpaceRef(s, i, afterPunct, &f)
			afterPunct = false
		default:
			j := i + 1
			for j < len(s) && byteClass[s[j]] == cPunct {
				j++
			}
			// A space before the punctuation joins it, and then the
			// punctuation cannot join the word after it: " (" + "x".
			if j-i == 1 && startsWordRef(s, j) && (i == 0 || s[i-1] != ' ') {
				f[fPunctPrefix]++
			} else {
				f[fPunctRun]++
				f[fPunctExtra] += j - i - 1
			}
			i = j
			afterPunct = true
		}
	}
	return f
}

// startsWord reports whether a word starts at s[i].
func startsWordRef(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := byteClass[s[i]]
	return c == cLower || c == cUpper || c == cHigh
}

// measureWord counts the word starting at s[i] and returns where it ends.
// A word is a run of letters and non-ASCII characters, split into segments
// where a lower-case letter is followed by an upper-case one ("camel|Case",
// but "HTTPServer" stays whole), as o200k's pre-splitting does. Segments are
// bucketed by their number of ASCII and accented Latin letters; other
// non-ASCII characters are counted by script.
func measureWordRef(s string, i int, f *features) int {
	n, upper := 0, 0 // letters and upper-case letters in the segment
	prevLower := false
	for ; i < len(s); i++ {
		b := s[i]
		switch byteClass[b] {
		case cLower:
			j := lowerRunRef(s, i+1)
			n += j - i
			i = j - 1
			prevLower = true
		case cUpper:
			if prevLower {
				f.wordRef(n, upper)
				n, upper = 0, 0
			}
			n++
			upper++
			prevLower = false
		case cHigh:
			k := runeFeature[b]
			switch {
			case k == fRuneLatin:
				n++
			case k == fRunePunct && i+1 < len(s) && s[i+1] >= 0x98:
				k = fRuneSymbol
			}
			if k < numFeatures {
				f[k]++
			}
		default:
			f.wordRef(n, upper)
			return i
		}
	}
	f.wordRef(n, upper)
	return i
}

// lowerRun returns where the run of lower-case ASCII letters at s[i]
// ends. Eight bytes at a time, a byte b is flagged by the high bit of
// b&0x7f + 0x80-'a' (set from 'a' up) but not of b&0x7f + 0x80-'z'-1 (set
// past 'z') nor of b itself (not ASCII); no sum carries into the next
// byte, so every flag is exact.
func lowerRunRef(s string, i int) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		t := x &^ high
		lower := (t + ones*(0x80-'a')) &^ (t + ones*(0x80-'z'-1)) &^ x & high
		if lower != high {
			return i + bits.TrailingZeros64(^lower&high)/8
		}
	}
	for i < len(s) && byteClass[s[i]] == cLower {
		i++
	}
	return i
}

func (f *features) wordRef(n, upper int) {
	switch {
	case n == 0:
		return
	case n <= 3:
		f[fWord3]++
	case n <= 6:
		f[fWord6]++
	case n <= 9:
		f[fWord9]++
	case n <= 12:
		f[fWord12]++
	default:
		f[fWordLong]++
		f[fLongLetters] += n - 12
	}
	if n >= 2 && upper == n {
		f[fUpperWord]++
	}
	if upper >= 2 && upper < n {
		f[fUpperLower]++
	}
}

// measureSpace counts the whitespace run starting at s[i] and returns where
// it ends. afterPunct reports whether punctuation ends right before it.
//
// Everything up to the last line break is one piece, except that line
// breaks right after punctuation belong to the punctuation piece. Of the
// whitespace after the last break, the last character joins a following
// word (and a following punctuation run if it is a space); the rest is one
// piece. Before a digit, or a punctuation run after a tab, the last
// character is a piece of its own.
func measureSpaceRef(s string, i int, afterPunct bool, f *features) int {
	j, lastBreak := i, -1
	for ; j < len(s); j++ {
		c := byteClass[s[j]]
		if c == cNewline {
			lastBreak = j
		} else if c != cSpace {
			break
		}
	}
	start := i
	if lastBreak >= 0 {
		k := i
		if afterPunct {
			for k <= lastBreak && byteClass[s[k]] == cNewline {
				k++
			}
			if k > i {
				f[fBreakAfterPunct]++
			}
		}
		if k <= lastBreak {
			f[fBreak]++
		}
		start = lastBreak + 1
	}
	n := j - start
	if n == 0 {
		return j
	}
	switch {
	case j == len(s):
		f[fSpace]++
	case startsWordRef(s, j) || (byteClass[s[j]] == cPunct && s[j-1] == ' '):
		if n > 1 {
			f[fSpace]++
		}
	default: // a digit, or punctuation after a tab
		f[fSpace] += min(n, 2)
	}
	return j
}

// FuzzMeasure holds measure, with its fast paths, to the reference pass,
// on the corpus and on every suffix of the fuzzed text.
func FuzzMeasure(f *testing.F) {
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
		for i := range min(len(text), 64) + 1 {
			s := text[i:]
			want := measureRef(s)
			if got := measure(s); got != want {
				t.Fatalf("measure(%q) (-want +got):\n%s", s, cmp.Diff(featureMap(want), featureMap(got)))
			}
			var got features
			for j, afterPunct := 0, false; j < len(s); {
				j, afterPunct = measureRange(s, j, min(j+7, len(s)), afterPunct, &got)
			}
			if got != want {
				t.Fatalf("measureRange(%q) by 7 bytes (-want +got):\n%s", s, cmp.Diff(featureMap(want), featureMap(got)))
			}
		}
	})
}

// TestMeasureCorpus holds measure to the reference pass on every corpus
// file whole.
func TestMeasureCorpus(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := measure(string(data)), measureRef(string(data)); got != want {
			t.Errorf("%s (-want +got):\n%s", p, cmp.Diff(featureMap(want), featureMap(got)))
		}
	}
}

// BenchmarkEstimateJSON estimates the JSON class of the corpus, the kind
// of text the gateway counts most.
func BenchmarkEstimateJSON(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", "json", "issues.json"))
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	e := NewEstimator(O200k)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		e.Count(text)
	}
}
