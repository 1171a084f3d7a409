package compact

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/winnowhq/winnow/internal/tokens"
)

// TestReadFactsInParallel checks that the facts read on several
// goroutines are those read one message at a time, on the largest
// recorded request (long enough to be split).
func TestReadFactsInParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	dialect, bodies := conversation(t)
	decode, _, err := codec(dialect)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := decode(bodies[len(bodies)-1])
	if err != nil {
		t.Fatal(err)
	}
	if text := conv.TextLen(); text < parallelFacts {
		t.Fatalf("%d bytes of text: too little to read in parallel", text)
	}
	var est tokens.Estimator
	got := make([]msgFacts, len(conv.Messages))
	readFacts(est, conv.Messages, got)
	for i := range conv.Messages {
		if want := newFacts(est, &conv.Messages[i]); !reflect.DeepEqual(got[i], want) {
			t.Fatalf("messages[%d]: facts %+v, want %+v", i, got[i], want)
		}
	}
}
