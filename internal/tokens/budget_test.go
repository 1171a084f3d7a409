package tokens

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBudgetFits(t *testing.T) {
	tests := []struct {
		name  string
		limit int
		n     int
		want  bool
	}{
		{"below limit", 10, 9, true},
		{"at limit", 10, 10, true},
		{"over limit", 10, 11, false},
		{"nothing fits anything", 10, 0, true},
		{"negative never fits", 10, -1, false},
		{"zero limit has no room", 0, 1, false},
		{"zero limit fits nothing", 0, 0, true},
		{"negative limit has no room", -5, 1, false},
		{"negative limit fits nothing", -5, 0, true},
		{"unlimited", Unlimited, math.MaxInt, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Budget{Limit: tt.limit}).Fits(tt.n); got != tt.want {
				t.Errorf("Budget{Limit: %d}.Fits(%d) = %v, want %v", tt.limit, tt.n, got, tt.want)
			}
		})
	}
}

func TestBudgetCount(t *testing.T) {
	text := "Привет, мир! func main() {}"
	exact := Count(O200k, text)
	if got := (Budget{}).Count(text); got != exact {
		t.Errorf("nil Counter: Count = %d, want exact o200k %d", got, exact)
	}
	est := NewEstimator(CL100k)
	if got, want := (Budget{Counter: est}).Count(text), est.Count(text); got != want {
		t.Errorf("estimator Counter: Count = %d, want %d", got, want)
	}
}

// A take is one step of spending a Meter: text to Take, or n to TakeN when
// text is empty.
type take struct {
	text string
	n    int
}

type meterState struct {
	Took      []bool
	Used      int
	Remaining int
}

// Token counts below are exact o200k (see referenceCounts): "hello world"
// is 2 tokens, " " is 1 and strings.Repeat("ab ", 500) is 501.
func TestMeter(t *testing.T) {
	long := strings.Repeat("ab ", 500)
	tests := []struct {
		name  string
		limit int
		takes []take
		want  meterState
	}{
		{"fills exactly", 5, []take{{text: "hello world"}, {text: "hello world"}, {text: " "}},
			meterState{Took: []bool{true, true, true}, Used: 5, Remaining: 0}},
		{"refuses what does not fit and keeps going", 4, []take{{text: "hello world"}, {text: long}, {text: "hello world"}, {text: " "}},
			meterState{Took: []bool{true, false, true, false}, Used: 4, Remaining: 0}},
		{"smaller text fits after a refusal", 3, []take{{text: "hello world"}, {text: "hello world"}, {text: " "}},
			meterState{Took: []bool{true, false, true}, Used: 3, Remaining: 0}},
		{"empty text always fits", 0, []take{{text: ""}, {n: 0}},
			meterState{Took: []bool{true, true}, Used: 0, Remaining: 0}},
		{"zero limit has no room", 0, []take{{text: " "}, {n: 1}},
			meterState{Took: []bool{false, false}, Used: 0, Remaining: 0}},
		{"negative limit has no room", -3, []take{{n: 1}},
			meterState{Took: []bool{false}, Used: 0, Remaining: 0}},
		{"TakeN", 10, []take{{n: 4}, {n: 7}, {n: 6}, {n: -1}},
			meterState{Took: []bool{true, false, true, false}, Used: 10, Remaining: 0}},
		{"unlimited", Unlimited, []take{{text: long}, {n: math.MaxInt - 501}, {n: 1}},
			meterState{Took: []bool{true, true, false}, Used: math.MaxInt, Remaining: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Budget{Limit: tt.limit}.Meter()
			got := meterState{Took: []bool{}}
			for _, tk := range tt.takes {
				var ok bool
				if tk.text != "" || tk.n == 0 {
					ok = m.Take(tk.text)
				} else {
					ok = m.TakeN(tk.n)
				}
				got.Took = append(got.Took, ok)
			}
			got.Used, got.Remaining = m.Used(), m.Remaining()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("meter (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzMeterNeverOverLimit spends a Meter with arbitrary amounts, each byte
// of steps read as a signed amount, and checks that Used never exceeds the
// room, Used+Remaining is the room, and a refused take changes nothing.
func FuzzMeterNeverOverLimit(f *testing.F) {
	f.Add(10, []byte{3, 3, 3, 3, 0xff, 1})
	f.Add(0, []byte{0, 1})
	f.Add(-7, []byte{0x80, 0x7f})
	f.Add(200, []byte{0x7f, 0x7f, 0x7f})
	f.Fuzz(func(t *testing.T, limit int, steps []byte) {
		room := max(limit, 0)
		m := Budget{Limit: limit}.Meter()
		for _, s := range steps {
			n := int(int8(s))
			before := m.Used()
			ok := m.TakeN(n)
			if ok != (n >= 0 && before+n <= room) {
				t.Fatalf("limit %d, used %d: TakeN(%d) = %v", limit, before, n, ok)
			}
			if !ok && m.Used() != before {
				t.Fatalf("refused TakeN(%d) changed Used from %d to %d", n, before, m.Used())
			}
			if m.Used() > room || m.Used()+m.Remaining() != room {
				t.Fatalf("limit %d: Used %d, Remaining %d", limit, m.Used(), m.Remaining())
			}
		}
	})
}
