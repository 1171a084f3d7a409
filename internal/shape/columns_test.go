package shape

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// unionKeysByMaps is unionKeys written the plain way, with maps, to hold
// the linked list and the key set to.
func unionKeysByMaps(objs [][]string) ([]string, bool) {
	var order []string
	pos := map[string]int{}
	for _, keys := range objs {
		at := 0 // insert after the last key of this object already placed
		for _, k := range keys {
			if p, ok := pos[k]; ok {
				at = p + 1
				continue
			}
			order = slices.Insert(order, at, k)
			for i, key := range order {
				pos[key] = i
			}
			at++
		}
	}
	if len(order) == 0 {
		return nil, false
	}
	for _, keys := range objs {
		last := -1
		for _, k := range keys {
			if pos[k] <= last {
				return nil, false
			}
			last = pos[k]
		}
	}
	return order, true
}

// TestUnionKeys compares unionKeys with unionKeysByMaps on arrays of
// objects drawn from up to 60 keys (past maxLinearKeys), in a shared
// order with keys left out, sometimes shuffled or repeated.
func TestUnionKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for n := range 3000 {
		width := 1 + r.IntN(60)
		objs := make([][]string, 1+r.IntN(6))
		for i := range objs {
			for k := range width {
				if r.IntN(4) > 0 {
					objs[i] = append(objs[i], fmt.Sprintf("k%d", k))
				}
			}
			switch r.IntN(20) {
			case 0:
				r.Shuffle(len(objs[i]), func(a, b int) { objs[i][a], objs[i][b] = objs[i][b], objs[i][a] })
			case 1:
				if len(objs[i]) > 0 {
					objs[i] = append(objs[i], objs[i][0])
				}
			}
		}
		var b strings.Builder
		b.WriteByte('[')
		for i, keys := range objs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('{')
			for j, k := range keys {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%q:%d", k, j)
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
		tp, _, err := parseJSON(b.String())
		if err != nil {
			t.Fatal(err)
		}
		var rows []int
		for e := range tp.elems(0) {
			rows = append(rows, e)
		}
		got, ok := unionKeys(&tp, rows)
		want, wantOK := unionKeysByMaps(objs)
		if ok != wantOK || ok && !cmp.Equal(want, got) {
			t.Fatalf("case %d, %s:\nunionKeys = %v, %v\nwant        %v, %v", n, b.String(), got, ok, want, wantOK)
		}
	}
}
