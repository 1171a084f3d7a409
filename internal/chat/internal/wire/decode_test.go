package wire

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
)

// TestDecodeInParallel decodes a body long enough to be split among
// goroutines and checks that every message lands at its index and that
// the error reported is the first failing message's, as when decoding one
// message at a time.
func TestDecodeInParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const n = 400
	pad := strings.Repeat("x", 4*parallelBytes/n) // enough for four goroutines
	elems := make([]string, n)
	for i := range elems {
		elems[i] = fmt.Sprintf(`"%d %s"`, i, pad)
	}
	body := `{"messages":[` + strings.Join(elems, ",") + `]}`
	failing := map[int]bool{}
	c := &Codec{
		Name: "test",
		Message: func(raw []byte, _ *rawjson.Object) (chat.Message, error) {
			s, _ := rawjson.String(raw)
			var i int
			fmt.Sscan(s, &i)
			if failing[i] {
				return chat.Message{}, errors.New("fails")
			}
			return chat.Message{Role: chat.Role(fmt.Sprint(i))}, nil
		},
		Build: func(_ []byte, _ *rawjson.Request, msgs []chat.Message) (*chat.Conversation, error) {
			return &chat.Conversation{Messages: msgs}, nil
		},
	}
	conv, err := c.Decode([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range conv.Messages {
		if m.Role != chat.Role(fmt.Sprint(i)) {
			t.Fatalf("messages[%d] decoded from element %s", i, m.Role)
		}
	}
	for _, fail := range [][]int{{n / 3, n/2 + 10, n - 2}, {n/2 + 10, n - 2}, {n - 1}} {
		clear(failing)
		for _, i := range fail {
			failing[i] = true
		}
		if _, err := c.Decode([]byte(body)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("messages[%d]:", fail[0])) {
			t.Errorf("messages %v fail: error %v, want the one of messages[%d]", fail, err, fail[0])
		}
	}
}
