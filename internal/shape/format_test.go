package shape

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFormats pins what each encoder writes for small inputs: these are
// the texts a model reads, so a change here is a change to the format.
func TestFormats(t *testing.T) {
	tests := []struct {
		name, encoder, in, want string
	}{
		{
			name:    "compact",
			encoder: EncoderCompact,
			in:      "{\n  \"a\": [1, 2.50, 1e400],\n  \"b\": \"\\u00e9\\n\"\n}",
			want:    `{"a":[1,2.50,1e400],"b":"é\n"}`,
		},
		{
			name:    "kv",
			encoder: EncoderKV,
			in:      `{"number":7,"title":"Crash on start","body":"Steps:\n1. open","id":"233059123","labels":["bug"],"closed_at":null,"a:b":"","note":" x"}`,
			want: "number: 7\n" +
				"title: Crash on start\n" +
				"body: \"Steps:\\n1. open\"\n" +
				"id: \"233059123\"\n" +
				"labels: [\"bug\"]\n" +
				"closed_at: null\n" +
				"\"a:b\": \"\"\n" +
				"note: \" x\"",
		},
		{
			name:    "table",
			encoder: EncoderTable,
			in: `[{"number":7,"title":"Crash on start","user":{"login":"ana","id":17},"labels":["bug"],"state":"open","closed_at":null},
			      {"number":8,"title":"Docs: typo, page 2","user":{"login":"bo","id":21},"labels":[],"state":"open"},
			      {"number":9,"title":"a|b","user":{"login":"ana","id":17},"labels":[],"state":"open","closed_at":"2025-03-01"}]`,
			want: "[3]:\n" +
				"number|title|user.login|user.id|labels|state=open|closed_at\n" +
				"7|Crash on start|ana|17|[\"bug\"]||null\n" +
				"8|Docs: typo, page 2|bo|21|[]||\n" +
				"9|\"a|b\"|ana|17|[]||2025-03-01",
		},
		{
			name:    "table with a nullable group",
			encoder: EncoderTable,
			in: `[{"id":1,"assignee":{"login":"ana","id":17,"type":"User"}},
			      {"id":2,"assignee":null},
			      {"id":3,"assignee":{"login":"bo","id":21,"type":"User"}},
			      {"id":4},
			      {"id":5,"assignee":{"login":"cy","id":5,"type":"Bot"}}]`,
			want: "[5]:\n" +
				"id|assignee.login|assignee.id|assignee.type\n" +
				"1|ana|17|User\n" +
				"2|null|null|null\n" +
				"3|bo|21|User\n" +
				"4|||\n" +
				"5|cy|5|Bot",
		},
		{
			name:    "wrapper",
			encoder: EncoderWrapper,
			in:      `{"total_count":2,"items":[{"number":7,"title":"Crash"},{"number":8,"title":"Typo"}],"next_page":null}`,
			want: "total_count: 2\n" +
				"items[2]:\n" +
				"number|title\n" +
				"7|Crash\n" +
				"8|Typo\n" +
				"next_page: null",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := inspect(tt.in)
			got, ok := encodeWith(tt.encoder, &d)
			if !ok {
				t.Fatalf("%s does not apply to %s", tt.encoder, d.shape)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s output (-want +got):\n%s", tt.encoder, diff)
			}
			back, err := Decode(tt.encoder, got)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, tt.in, back)
		})
	}
}

func TestMarkdownCSV(t *testing.T) {
	tests := []struct {
		name, in, csv, md string
	}{
		{
			name: "padded, with alignment",
			in: "| name | role  | notes            |\n" +
				"|:-----|:-----:|-----------------:|\n" +
				"| ana  | admin | ops, on call     |\n" +
				"| bo   | dev   | says \"hi\" \\| bye |\n",
			csv: "name,role,notes\nana,admin,\"ops, on call\"\nbo,dev,\"says \"\"hi\"\" | bye\"",
			md:  "| name | role | notes |\n| --- | --- | --- |\n| ana | admin | ops, on call |\n| bo | dev | says \"hi\" \\| bye |\n",
		},
		{
			name: "no border pipes, empty cells",
			in:   "a | b\n--- | ---\n1 |\n| | 2\n",
			csv:  "a,b\n1,\n,2",
			md:   "| a | b |\n| --- | --- |\n| 1 |  |\n|  | 2 |\n",
		},
		{
			name: "one column with an empty cell",
			in:   "| x |\n|---|\n| |\n| `a\\|b` |",
			csv:  "x\n\"\"\n`a|b`",
			md:   "| x |\n| --- |\n|  |\n| `a\\|b` |\n",
		},
		{
			name: "header only",
			in:   "| a | b |\n| - | - |",
			csv:  "a,b",
			md:   "| a | b |\n| --- | --- |\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := inspect(tt.in)
			if d.shape != MarkdownTable {
				t.Fatalf("shape %s, want %s", d.shape, MarkdownTable)
			}
			got, ok := encodeWith(EncoderMarkdownCSV, &d)
			if !ok {
				t.Fatal("md_csv does not apply")
			}
			if diff := cmp.Diff(tt.csv, got); diff != "" {
				t.Errorf("csv (-want +got):\n%s", diff)
			}
			md, err := Decode(EncoderMarkdownCSV, got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.md, md); diff != "" {
				t.Errorf("decoded markdown (-want +got):\n%s", diff)
			}
			back, ok := parseMarkdownTable(md)
			if !ok {
				t.Fatalf("decoded markdown is not a table:\n%s", md)
			}
			if diff := cmp.Diff(d.table, back); diff != "" {
				t.Errorf("cells after the round trip (-want +got):\n%s", diff)
			}
		})
	}
}
