package shape

// EncoderWrapper names the wrapper_table encoder: an object whose biggest member is an
// array of objects (a search result, a paginated list) as kv lines for
// the other members and a table for the array, all in the object's order:
//
//	total_count: 2
//	incomplete_results: false
//	items[2]:
//	number|title|state
//	7|Crash on start|open
//	8|Typo|closed
//	next_page: null
//
// "items[2]:" opens the table and gives its row count; the header line
// and exactly that many rows follow (see the table encoder), then the
// remaining members, if any, as kv lines.
const EncoderWrapper = "wrapper_table"

// encodeWrapper writes object node i, a wrapper, as kv lines and a
// table.
func encodeWrapper(t *tape, i int) (string, bool) {
	if t.nodes[i].kind != kindObject {
		return "", false
	}
	at := wrappedArray(t, i)
	if at < 0 {
		return "", false
	}
	cols, ok := tableColumns(t, at+1)
	if !ok {
		return "", false
	}
	return bytesString(appendLines(make([]byte, 0, sizeHint(t, i)*3/4), t, i, at, cols)), true
}

// decodeWrapper reads text written by encodeWrapper onto t.
func (t *tape) decodeWrapper(text string) error {
	return t.parseLines(text, true)
}
