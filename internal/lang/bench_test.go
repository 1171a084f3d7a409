package lang

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

var benchTree = flag.String("tree", "", "BenchmarkParse reads the source files of this tree instead of the golden files")

// benchSources returns the files BenchmarkParse extracts: the -tree's,
// or the golden archives'.
func benchSources(b *testing.B) (names []string, data [][]byte, langs []*Language) {
	if *benchTree == "" {
		files, ls := goldenSources(b)
		for i, f := range files {
			names, data, langs = append(names, f.Name), append(data, f.Data), append(langs, ls[i])
		}
		return names, data, langs
	}
	err := filepath.WalkDir(*benchTree, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		l := ForPath(path)
		if d.IsDir() || l == nil {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil || len(src) >= largeSource {
			return err // large files are parsed one at a time, apart
		}
		names, data, langs = append(names, path), append(data, src), append(langs, l)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return names, data, langs
}

// BenchmarkLoad compiles a language's query (what every process that
// parses pays once per language), with the reference patterns walked
// and, as its peer, with every pattern in the query.
func BenchmarkLoad(b *testing.B) {
	for _, name := range []string{"python", "go", "typescript"} {
		l := ByName(name)
		for _, mode := range []struct {
			name      string
			queryOnly bool
		}{{"query", true}, {"walk", false}} {
			b.Run(name+"/"+mode.name, func(b *testing.B) {
				for b.Loop() {
					fresh := unloaded(l, mode.queryOnly)
					if err := fresh.load(); err != nil {
						b.Fatal(err)
					}
					fresh.query.Close()
					fresh.walk.close()
				}
			})
		}
	}
}

// BenchmarkParse extracts every source of a language, in the golden
// files or in a tree (-args -tree DIR), with the reference patterns
// walked and, as its peer, with every pattern in the query.
func BenchmarkParse(b *testing.B) {
	names, data, langs := benchSources(b)
	for _, name := range []string{"python", "go", "typescript", "java", "cpp"} {
		l := ByName(name)
		queryOnly := unloaded(l, true)
		for _, mode := range []struct {
			name string
			l    *Language
		}{{"query", queryOnly}, {"walk", l}} {
			b.Run(name+"/"+mode.name, func(b *testing.B) {
				p := NewParser()
				defer p.Close()
				size := 0
				for i, src := range data {
					if langs[i] == l {
						size += len(src)
					}
				}
				if size == 0 {
					b.Skip("no source of this language")
				}
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					for i, src := range data {
						if langs[i] != l {
							continue
						}
						if _, err := p.Parse(b.Context(), mode.l, names[i], src); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
