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

// encodeWrapper writes a wrapper object as kv lines and a table.
func encodeWrapper(v *value) (string, bool) {
	if v.kind != kindObject {
		return "", false
	}
	at := wrappedArray(v)
	if at < 0 {
		return "", false
	}
	cols, ok := tableColumns(&v.members[at].val)
	if !ok {
		return "", false
	}
	return string(appendLines(make([]byte, 0, compactLen(v)*3/4), v, at, cols)), true
}

// decodeWrapper reads text written by encodeWrapper.
func decodeWrapper(text string) (value, error) {
	return parseLines(text, true)
}
