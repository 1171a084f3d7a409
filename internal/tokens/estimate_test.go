package tokens

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// featureMap names the non-zero features of f, for readable diffs.
func featureMap(f features) map[string]int {
	m := map[string]int{}
	for k, n := range f {
		if n != 0 {
			m[featureNames[k]] = n
		}
	}
	return m
}

func TestMeasure(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string]int
	}{
		{"empty", "", map[string]int{}},
		{"words by length", "a tiny sentence, plainly internationalisation",
			map[string]int{"fWord3": 1, "fWord6": 1, "fWord9": 2, "fWordLong": 1, "fLongLetters": 8, "fPunctRun": 1}},
		{"camel case splits, acronyms do not", "camelCase HTTPServer ID",
			map[string]int{"fWord6": 2, "fWord12": 1, "fUpperLower": 1, "fWord3": 1, "fUpperWord": 1}},
		{"digits in groups of three", "1234567 42",
			map[string]int{"fDigitGroup": 4, "fSpace": 1}},
		{"punctuation glued to a word unless a space precedes it", "(x) _name",
			map[string]int{"fPunctPrefix": 1, "fWord3": 1, "fWord6": 1, "fPunctRun": 2}},
		{"line break after punctuation", "f() {\n\treturn\n}",
			map[string]int{"fWord3": 1, "fPunctRun": 3, "fPunctExtra": 1, "fBreakAfterPunct": 1, "fWord6": 1, "fBreak": 1}},
		{"indentation before a word and before punctuation", "x\n\t\tif\n\t\t}",
			map[string]int{"fWord3": 2, "fBreak": 2, "fSpace": 3, "fPunctRun": 1}},
		{"space runs", "a   b 1 ",
			map[string]int{"fWord3": 2, "fSpace": 3, "fDigitGroup": 1}},
		{"scripts", "Größe Привет 世界 안녕 “q” ✅ 🚀",
			map[string]int{"fWord6": 1, "fRuneLatin": 2, "fRuneCyrillic": 6, "fRuneCJK": 2, "fRuneHangul": 2,
				"fRunePunct": 2, "fWord3": 1, "fRuneSymbol": 1, "fRune4": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, featureMap(measure(tt.text))); diff != "" {
				t.Errorf("measure(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestEstimatorCalibrationChoice(t *testing.T) {
	text := "Привет, мир! 在大型仓库中 func main() {}"
	o200k := NewEstimator(O200k).Count(text)
	if got := (Estimator{}).Count(text); got != o200k {
		t.Errorf("zero Estimator = %d, want the o200k estimate %d", got, o200k)
	}
	if got := NewEstimator("p50k_base").Count(text); got != o200k {
		t.Errorf("NewEstimator(p50k_base) = %d, want the o200k estimate %d", got, o200k)
	}
	if got := NewEstimator(CL100k).Count(text); got <= o200k {
		t.Errorf("cl100k estimate %d not above o200k's %d for Cyrillic and CJK text", got, o200k)
	}
}

// FuzzEstimate checks that the estimate is 0 exactly for the empty string
// and stays below three tokens per byte of valid UTF-8 (four of arbitrary
// bytes).
func FuzzEstimate(f *testing.F) {
	for _, tt := range referenceCounts {
		f.Add(tt.text)
	}
	f.Add("\xff\xfe\xc3(\xe2\x82")
	f.Fuzz(func(t *testing.T, text string) {
		for _, enc := range []Encoding{O200k, CL100k} {
			n := NewEstimator(enc).Count(text)
			if (n == 0) != (text == "") {
				t.Errorf("%s: Count(%q) = %d", enc, text, n)
			}
			perByte := 3
			if !utf8.ValidString(text) {
				perByte = 4
			}
			if n > perByte*len(text) {
				t.Errorf("%s: Count(%q) = %d, more than %d per byte", enc, text, n, perByte)
			}
		}
	})
}

func TestFeatureNames(t *testing.T) {
	seen := map[string]bool{}
	for k, name := range featureNames {
		if name == "" || seen[name] {
			t.Errorf("feature %d: name %q missing or repeated", k, name)
		}
		seen[name] = true
	}
}

// FuzzLowerRun checks lowerRun, which reads eight bytes at a time, against
// the byte-at-a-time loop it stands for, from every offset.
func FuzzLowerRun(f *testing.F) {
	for _, s := range []string{"", "abc", "abcdefghijklmnopqrstuvwxyz{`@[", "word Word wordier\xe2\x80\x94abcdefgh\x80z", "zzzzzzzz{zzzzzzz`aaaaaaaa"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := range len(s) + 1 {
			want := i
			for want < len(s) && byteClass[s[want]] == cLower {
				want++
			}
			if got := lowerRun(s, i); got != want {
				t.Fatalf("lowerRun(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	})
}
