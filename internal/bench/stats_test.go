package bench

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

func TestSummarize(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		var ds []time.Duration
		for _, v := range n {
			ds = append(ds, time.Duration(v)*time.Millisecond)
		}
		return ds
	}
	m := func(v int) Millis { return Millis(time.Duration(v) * time.Millisecond) }
	tests := []struct {
		name string
		in   []time.Duration
		want Durations
	}{
		{"none", nil, Durations{}},
		{"one", ms(7), Durations{N: 1, Min: m(7), P50: m(7), P95: m(7), Max: m(7)}},
		{"odd, unsorted", ms(3, 1, 2), Durations{N: 3, Min: m(1), P50: m(2), P95: m(3), Max: m(3)}},
		{"even takes the lower median", ms(4, 1, 3, 2), Durations{N: 4, Min: m(1), P50: m(2), P95: m(4), Max: m(4)}},
		{"p95 of 20 is the 19th", ms(20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1),
			Durations{N: 20, Min: m(1), P50: m(10), P95: m(19), Max: m(20)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, measure.Summarize(tt.in)); diff != "" {
				t.Errorf("summarize (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMillisJSON(t *testing.T) {
	b, err := json.Marshal(Durations{N: 2, Min: Millis(1500 * time.Microsecond), P50: Millis(2 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"n":2,"min_ms":1.5,"p50_ms":2000,"p95_ms":0,"max_ms":0}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}
