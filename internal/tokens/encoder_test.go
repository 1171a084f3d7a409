package tokens

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/tiktoken-go/tokenizer"
)

// The encoder must count and encode exactly as tiktoken-go does. These
// tests compare the two on every text at hand: the reference table, the
// calibration corpus whole and in pieces, this repository's Go files,
// multilingual text, every rune in several contexts, and fuzzed bytes.

func tiktoken(t testing.TB, enc Encoding) tokenizer.Codec {
	t.Helper()
	c, err := codec(enc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// encoderOf is encoderFor for the encodings the tests know.
func encoderOf(enc Encoding) *encoder {
	e, err := encoderFor(enc)
	if err != nil {
		panic(err)
	}
	return e
}

// diffEncode reports where the encoder's ids for text differ from
// tiktoken-go's.
func diffEncode(t *testing.T, enc Encoding, text string) {
	t.Helper()
	want, _, err := tiktoken(t, enc).Encode(text)
	if err != nil {
		t.Fatal(err)
	}
	e := encoderOf(enc)
	if got := e.count(text); got != len(want) {
		t.Errorf("%s: count(%.80q) = %d, tiktoken %d", enc, text, got, len(want))
	}
	got := e.encode(text)
	if !slices.Equal(got, want) {
		t.Errorf("%s: encode(%.80q) differs from tiktoken (-want +got):\n%s", enc, text, cmp.Diff(want, got))
	}
}

// multilingual is real text in many scripts, with the marks, digits and
// punctuation they bring.
var multilingual = []string{
	"Größe, café, señor, naïve — «quotes» and „Anführungszeichen“.",
	"Привет, мир! Тест падает только на Windows. ПРИВЕТ Мир'S",
	"Ελληνικά: Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο.",
	"العربية: مرحبا بالعالم، هذا اختبار للترميز ١٢٣٤٥٦.",
	"עברית: שלום עולם! זה מבחן.",
	"हिन्दी: नमस्ते दुनिया, यह एक परीक्षण है। ०१२३४५",
	"বাংলা: আমি বাংলায় গান গাই।",
	"தமிழ்: வணக்கம் உலகம்",
	"ไทย: สวัสดีชาวโลก นี่คือการทดสอบ",
	"日本語: 今日は良い天気ですね。カタカナとひらがな、漢字。ｶﾀｶﾅ",
	"中文：你好，世界！这是一个测试。繁體中文測試。",
	"한국어: 안녕하세요 세계! 테스트입니다.",
	"Tiếng Việt: Xin chào thế giới, đây là một bài kiểm tra.",
	"Türkçe: İstanbul'da ılık bir gün; ŞEHİR'DE",
	"ქართული: გამარჯობა მსოფლიო",
	"Հայերեն: Բարեւ աշխարհ",
	"አማርኛ: ሰላም ልዑል",
	"emoji: 👋🌍 ship it 🚀🔥👍 family: 👨‍👩‍👧‍👦 ⚠️ 🇫🇷 👍🏽",
	"math: ∀x∈ℝ, x² ≥ 0; ∑ᵢ aᵢ = ½ · π ≈ 3.14159 ⅓ Ⅻ",
	"combining: e\u0301 a\u0308 \u0301\u0302x Z\u0351\u0352ALGO n\u0303o",
	"DON'T it'S WE'RE they'VE I'M you'LL he'D ſ 'ſ Iſ it'ſ",
	"ǅungla ǈ ǋ ᾈ ᾼ Titlecase ǅǅx xǅ",
	"ʰʲʷ ˀ modifiers ʰa aʰ Aʰ ʰA ー ｰ",
	"\u00a0nbsp\u2003em\u3000ideographic\u200bzero\u2028line\u2029para\u0085nel\ufeffbom",
	"tabs\t\tand\r\n\r\nCRLF\r\r\n\n \n\t \u00a0\n",
}

func TestEncoderMatchesReferenceAndCorpus(t *testing.T) {
	texts := []string{}
	for _, tt := range referenceCounts {
		texts = append(texts, tt.text)
	}
	texts = append(texts, cacheCases...)
	texts = append(texts, multilingual...)
	texts = append(texts, strings.Join(multilingual, "\n"))
	texts = append(texts, corpusPieces(t, 5, 37)...)
	for _, enc := range []Encoding{O200k, CL100k} {
		for _, text := range texts {
			diffEncode(t, enc, text)
		}
	}
}

// TestEncoderMatchesRepoGoFiles counts every Go file of this repository
// (but the generated vocabularies) with both.
func TestEncoderMatchesRepoGoFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_vocab.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		for _, enc := range []Encoding{O200k, CL100k} {
			want, err := tiktoken(t, enc).Count(string(data))
			if err != nil {
				t.Fatal(err)
			}
			if got := encoderOf(enc).count(string(data)); got != want {
				t.Errorf("%s: %s: count %d, tiktoken %d", enc, path, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d Go files under %s", n, root)
	}
}

// TestEncoderEveryRune counts every rune of the planes that have assigned
// characters (0-3 and 14; one block of 64 runes in 61 of the others) in
// contexts that exercise each class of the pre-tokenizers: between
// letters of each case, before letters, before a contraction, between
// digits, after a line break and in punctuation and white space. Runes go
// in blocks of 64 per text; a block whose count differs is then checked
// rune by rune. tiktoken-go takes about 15 s for it.
func TestEncoderEveryRune(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	contexts := []string{"a%b", "A%a", "%a", "x%'s", "1%2", " %%x", "\n%", "  % ", "%\u0301"}
	ctxText := func(ctx string, r rune) string {
		return strings.ReplaceAll(ctx, "%", string(r))
	}
	for _, enc := range []Encoding{O200k, CL100k} {
		tk := tiktoken(t, enc)
		e := encoderOf(enc)
		failures := 0
		for lo := rune(0); lo <= utf8.MaxRune && failures < 20; lo += 64 {
			if plane := lo >> 16; plane > 3 && plane != 14 && lo%(61*64) != 0 {
				continue
			}
			var sb strings.Builder
			for r := lo; r < lo+64; r++ {
				for _, ctx := range contexts {
					sb.WriteString(ctxText(ctx, r))
					sb.WriteString("\n.")
				}
			}
			text := sb.String()
			want, _ := tk.Count(text)
			if got := e.count(text); got == want {
				continue
			}
			for r := lo; r < lo+64; r++ {
				for _, ctx := range contexts {
					text := ctxText(ctx, r)
					want, _ := tk.Count(text)
					if got := e.count(text); got != want {
						t.Errorf("%s: count(%+q) = %d, tiktoken %d", enc, text, got, want)
						failures++
					}
				}
			}
		}
	}
}

// FuzzCountMatchesTiktoken: for any bytes, the encoder's count (and ids)
// equal tiktoken-go's, under both encodings.
func FuzzCountMatchesTiktoken(f *testing.F) {
	for _, tt := range referenceCounts {
		f.Add(tt.text)
	}
	for _, s := range multilingual {
		f.Add(s)
	}
	for _, s := range cacheCases {
		f.Add(s)
	}
	o200k, cl100k := tiktoken(f, O200k), tiktoken(f, CL100k)
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range []struct {
			enc Encoding
			tk  tokenizer.Codec
		}{{O200k, o200k}, {CL100k, cl100k}} {
			want, _, err := c.tk.Encode(text)
			if err != nil {
				t.Fatal(err)
			}
			e := encoderOf(c.enc)
			if got := e.count(text); got != len(want) {
				t.Fatalf("%s: count(%q) = %d, tiktoken %d", c.enc, text, got, len(want))
			}
			if got := e.encode(text); !slices.Equal(got, want) {
				t.Fatalf("%s: encode(%q) (-want +got):\n%s", c.enc, text, cmp.Diff(want, got))
			}
		}
	})
}

// TestVocabMatchesTiktoken looks up every token of tiktoken-go's
// vocabularies in the generated tables, both ways, and checks that the
// tables hold nothing more.
func TestVocabMatchesTiktoken(t *testing.T) {
	for _, enc := range []Encoding{O200k, CL100k} {
		tk := tiktoken(t, enc)
		v := encoderOf(enc).vocab
		for r := 0; r < v.tokens; r++ {
			want, err := tk.Decode([]uint{uint(r)})
			if err != nil {
				t.Fatalf("%s: tiktoken has no token %d: %v", enc, r, err)
			}
			if got := v.token(r); got != want {
				t.Fatalf("%s: token(%d) = %q, tiktoken %q", enc, r, got, want)
			}
			if got, ok := v.rank(want); !ok || got != r {
				t.Fatalf("%s: rank(%q) = %d, %v; want %d", enc, want, got, ok, r)
			}
		}
		if s, err := tk.Decode([]uint{uint(v.tokens)}); err == nil && !strings.HasPrefix(s, "<|") {
			t.Errorf("%s: tiktoken has ordinary token %q at %d, past the tables' last", enc, s, v.tokens)
		}
		if len(v.blob) != digits4(v.offsets, 4*v.tokens) {
			t.Errorf("%s: blob holds %d bytes, offsets end at %d", enc, len(v.blob), digits4(v.offsets, 4*v.tokens))
		}
	}
}
