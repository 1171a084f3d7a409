package toolvalue

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestListedPaths(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"hits, paths, a labelled line and a listing",
			"Found 3 matches:\nsrc/a.py:12:    def f():\nsrc/a.py:40:  f()\n/abs/b.go\nREADME.md: see this\nnot a path\n[FILE] c/d.txt\n",
			[]string{"src/a.py", "/abs/b.go", "README.md", "c/d.txt"}},
		{"a traceback's names are not paths",
			"Traceback (most recent call last):\n" +
				`  File "/r/x.py", line 3, in <module>` + "\n" +
				"    evaluator.run()\n    super().run()\n    super().__init__(\n    asyncio.run(main())\n" +
				"    s3_client.create_bucket(Bucket=bucket_name)\n" +
				"json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n" +
				"botocore.errorfactory.NoSuchDistribution: An error occurred\n" +
				"nbformat.reader.NotJSONError: Notebook does not appear to be JSON\n" +
				"query.id\nos.path\n",
			nil},
		{"warnings and test failures print paths",
			"/opt/lib/python3.10/asyncio/events.py:80: DeprecationWarning: x\nmoto/athena/models.py:123: in list_named_queries\n",
			[]string{"/opt/lib/python3.10/asyncio/events.py", "moto/athena/models.py"}},
		{"ls -R's directory headers are not files",
			"/r/docs:\nconf.py\nindex.rst\n/r/src:\nmain.go\n",
			[]string{"conf.py", "index.rst", "main.go"}},
		{"names without a slash need a file's extension",
			"setup.py\nMakefile\nREADME\nnotes.TXT\nlib.so.6\nfoo.bar\n",
			[]string{"setup.py", "notes.TXT"}},
		{"with a slash any plain extension will do",
			"src/lib.so\nbin/tool\na/b.Weird\ndata/x.pgp.enc\n",
			[]string{"src/lib.so", "bin/tool", "data/x.pgp.enc"}},
		{"SWE-agent's search_dir",
			"Found 4 matches for \"slots\" in /r:\n/r/a.py (3 matches)\n/r/b.py (1 matches)\nEnd of matches for \"slots\" in /r\n",
			[]string{"/r/a.py", "/r/b.py"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ListedPaths(tt.text)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestListedHits(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Hit
	}{
		{"grep -n on one file",
			"OBSERVATION:\ngrep -n 'slots' /r/attrs.py\n297:    slots_default: bool = False,\n318:    slots = x\n",
			[]Hit{{Line: 297}, {Line: 318}}},
		{"SWE-agent's search_file",
			"Found 1 matches for \"def get_notebooks_to_test\" in /treon/treon/treon.py:\nLine 122:def get_notebooks_to_test(args):\nEnd of matches for \"def get_notebooks_to_test\" in /treon/treon/treon.py\n",
			[]Hit{{Line: 122}}},
		{"grep -rn and Claude Code's Grep in content mode",
			"/r/a.py:12:def f():\n/r/a.py:12:def f():\n./b.py:7:  f()\n",
			[]Hit{{"/r/a.py", 12}, {"./b.py", 7}}},
		{"grep -r without -n and grep -l",
			"./tests/test_a.py:def test_list():\n/r/c.py\n",
			[]Hit{{"./tests/test_a.py", 0}, {"/r/c.py", 0}}},
		{"a traceback's frames",
			"Traceback (most recent call last):\n" +
				`  File "/OQuPy/reproduce.py", line 30, in <module>` + "\n    pt = f()\n" +
				`  File "/OQuPy/oqupy/process_tensor.py", line 536, in _read_file` + "\n" +
				"ValueError: The truth value of an array is ambiguous\n",
			[]Hit{{"/OQuPy/reproduce.py", 30}, {"/OQuPy/oqupy/process_tensor.py", 536}}},
		{"a compiler's locations", "internal/x/y.go:12:5: undefined: z\n", []Hit{{"internal/x/y.go", 12}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ListedHits(tt.text)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
