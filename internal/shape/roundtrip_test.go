package shape

import (
	"strings"
	"testing"
)

// TestRoundTripCorpus encodes the fixtures and the generated arrays with
// exact o200k counts and checks that the chosen encoding is shorter, was
// not rejected, is the table for every array of two objects or more (the
// point of the package), and decodes to the same JSON; and that every
// encoder that applies, chosen or not, round-trips.
func TestRoundTripCorpus(t *testing.T) {
	count := o200k(t)
	for _, doc := range corpus(t) {
		t.Run(doc.Name, func(t *testing.T) {
			res := Encode(doc.Text, count)
			if res.Shape != JSONArrayObjects {
				t.Fatalf("shape %s, want %s", res.Shape, JSONArrayObjects)
			}
			if res.Rejected != "" {
				t.Fatalf("gate rejected %s", res.Rejected)
			}
			if res.Encoder == "" || res.After >= res.Before {
				t.Fatalf("kept the original: %+v", res)
			}
			if rows := strings.Count(doc.Text, "\n  {"); rows >= 2 && res.Encoder != EncoderTable {
				t.Errorf("%d objects: encoder %q, want %q", rows, res.Encoder, EncoderTable)
			}
			got, err := Decode(res.Encoder, res.Text)
			if err != nil {
				t.Fatalf("Decode(%s): %v", res.Encoder, err)
			}
			sameJSON(t, doc.Text, got)
			checkEveryEncoder(t, doc.Text)
		})
	}
}

// checkEveryEncoder runs each encoder that applies to text's shape and
// checks that its output decodes to the same JSON.
func checkEveryEncoder(t *testing.T, text string) {
	t.Helper()
	d := inspect(text)
	for _, name := range encodersFor(d.shape) {
		out, ok := encodeWith(name, &d)
		if !ok {
			continue
		}
		got, err := Decode(name, out)
		if err != nil {
			t.Errorf("%s: Decode: %v\n%s", name, err, out)
			continue
		}
		sameJSON(t, text, got)
		if !roundTrips(name, out, &d) {
			t.Errorf("%s: the gate rejects a correct encoding", name)
		}
	}
}

// TestRoundTripEdgeCases runs every applicable encoder on documents built
// to break the text formats.
func TestRoundTripEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		json string
	}{
		{"strings that look like other types", `[{"a":"42","b":"null","c":"true","d":"1e400","e":"007","f":"NaN","g":"-","h":"Infinity","i":"+1","j":".5"},{"a":42,"b":null,"c":true,"d":1e400,"e":7,"f":"nan","g":"--","h":"inf","i":"1.","j":"0x10"}]`},
		{"numbers keep their text", `[{"n":0.10,"m":-0.0,"k":1E+2,"j":123456789012345678901234567890,"i":1e-7},{"n":1.0,"m":0,"k":1e400,"j":-1,"i":0.5}]`},
		{"absent, null and empty string", `[{"a":1,"b":null,"c":""},{"a":2},{"a":3,"c":"x"},{"b":"","c":null}]`},
		{"hard strings", `[{"s":"a|b","t":"line\nbreak","u":" lead","v":"trail ","w":"tab\there","x":"\"q\"","y":"{x}","z":"[y]"},{"s":"é\u00e9\ud83d\ude80","t":"\u2028sep","u":"\\","v":"#1","w":"key: value","x":"a=b","y":"a.b","z":"ctrl\u0001"}]`},
		{"keys that need quoting", `[{"a|b":1,"c.d":2,"e=f":3,"":4," g":5,"h:i":6,"\"j":7,"k\nl":8,"[m]":9},{"a|b":10,"c.d":20,"e=f":30,"":40," g":50,"h:i":60,"\"j":70,"k\nl":80,"[m]":90}]`},
		{"nested objects spread and not", `[{"u":{"login":"a","id":1},"m":{"t":"x"},"e":{}},{"u":{"login":"b","id":2},"m":null,"e":{}},{"u":{"login":"c","id":3,"extra":true},"e":{"k":1}}]`},
		{"nested groups", `[{"a":{"b":{"c":1,"d":2},"e":3}},{"a":{"b":{"c":4,"d":5},"e":6}},{"a":{"b":null,"e":7}},{"a":null},{}]`},
		{"objects of nulls are not null", `[{"u":{"a":null,"b":null}},{"u":null},{"u":{"a":1,"b":null}},{"u":{"a":null}}]`},
		{"constant columns", `[{"k":"same value","n":null,"o":{"p":"const"},"x":1},{"k":"same value","n":null,"o":{"p":"const"},"x":2},{"k":"same value","n":null,"o":{"p":"const"},"x":3}]`},
		{"constant column of a nullable group", `[{"g":{"a":null,"b":1}},{"g":null},{"g":{"a":null,"b":2}}]`},
		{"one key, missing in a row", `[{"a":1},{},{"a":2}]`},
		{"arrays in cells", `[{"l":[1,[2,{"x":"|"}]],"o":{"k":[]}},{"l":[],"o":{"k":["a|b"]}}]`},
		{"key order contradicts", `[{"a":1,"b":2},{"b":3,"a":4}]`},
		{"duplicate keys", `[{"a":1,"a":2},{"a":3}]`},
		{"duplicate keys in a flat object", `{"a":1,"b":2,"a":3}`},
		{"flat object", `{"id":"233059123","n":7,"ok":false,"none":null,"s":"line\nbreak","e":"","u":"Ünïcödé ✓"}`},
		{"nested object", `{"a":{"b":[1,2,{"c":"d"}]},"e":[],"f":{}}`},
		{"wrapper, table last", `{"total_count":2,"incomplete_results":false,"items":[{"id":1,"t":"a b"},{"id":2,"t":"c|d"}]}`},
		{"wrapper, table first", `{"items":[{"id":1,"t":"a"},{"id":2,"t":"b"},{"id":3}],"next":null,"page":{"n":1}}`},
		{"wrapper, odd keys", `{"":[{"x":1},{"x":2},{"x":3}],"a[1]":"v[2]:","b":"]:"}`},
		{"wrapper, array key with brackets", `{"items[2]":[{"x":"long enough"},{"x":"long enough too"}],"z":1}`},
		{"scalar array", `[1, "two", null, true, 2.50]`},
		{"mixed array", `[{"a":1}, [1], 2]`},
		{"array of arrays", `[[1,2],[3,4]]`},
		{"deep", strings.Repeat("[", 500) + "1" + strings.Repeat("]", 500)},
		{"html escapes", `[{"h":"\u003cb\u003e \u0026amp;"},{"h":"<i>"}]`},
		{"pretty spaces", "[\n  {\"a\" : 1 ,\r\n \"b\":\t[ ]},\n  {\"a\": 2, \"b\": [ 1 ]}\n]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkEveryEncoder(t, tt.json)
			for _, count := range []func(string) int{nil, o200k(t)} {
				res := Encode(tt.json, count)
				if res.Rejected != "" {
					t.Fatalf("gate rejected %s", res.Rejected)
				}
				got, err := Decode(res.Encoder, res.Text)
				if err != nil {
					t.Fatalf("Decode(%q): %v", res.Encoder, err)
				}
				sameJSON(t, tt.json, got)
			}
		})
	}
}

// TestRoundTripLarge checks a generated array of 1000 objects of each
// kind.
func TestRoundTripLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large arrays in -short mode")
	}
	for _, doc := range largeDocs(t, 1000) {
		t.Run(doc.Name, func(t *testing.T) {
			res := Encode(doc.Text, nil)
			if res.Encoder != EncoderTable || res.Rejected != "" {
				t.Fatalf("encoder %q, rejected %q", res.Encoder, res.Rejected)
			}
			got, err := Decode(res.Encoder, res.Text)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, doc.Text, got)
		})
	}
}

func TestSaved(t *testing.T) {
	r := Result{Before: 10, After: 7}
	if got := r.Saved(); got != 3 {
		t.Errorf("Saved() = %d, want 3", got)
	}
}
