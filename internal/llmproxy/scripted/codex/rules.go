package codex

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// An issued item is one output item the fake produced: what the API would recognise
// when a client sends it back.
type issued struct {
	typ       string
	id        string
	callID    string // tool calls
	encrypted string // reasoning: the encrypted_content handed out
	hidden    string // reasoning: the reasoning text encrypted_content stands for
	reasoning string // a follower: the id of the reasoning item produced with it
	follower  string // reasoning: the id of the item produced right after it
	step      int    // the script step that produced it; 0 for the final answer
}

// A ledger holds every item the fake issued, by id, call id and encrypted content.
type ledger struct {
	byID        map[string]*issued
	byCallID    map[string]*issued
	byEncrypted map[string]*issued
}

func newLedger() *ledger {
	return &ledger{byID: map[string]*issued{}, byCallID: map[string]*issued{}, byEncrypted: map[string]*issued{}}
}

func (l *ledger) add(it *issued) {
	l.byID[it.id] = it
	if it.callID != "" {
		l.byCallID[it.callID] = it
	}
	if it.encrypted != "" {
		l.byEncrypted[it.encrypted] = it
	}
}

// lookup returns what the fake issued for an input item: by id when it has one, else
// by call id or encrypted content; nil for an item the fake did not produce.
func (l *ledger) lookup(it *item) *issued {
	if it.ID != "" {
		return l.byID[it.ID]
	}
	if it.CallID != "" && outputType[it.Type] != "" {
		return l.byCallID[it.CallID]
	}
	if it.Type == typeReasoning && it.EncryptedContent != nil {
		return l.byEncrypted[*it.EncryptedContent]
	}
	return nil
}

// A Violation is a rule of the Responses API that a request broke: the error the API
// would have answered with.
type Violation struct {
	Request int    `json:"request"` // the request's number, from 1, among all the fake received
	Status  int    `json:"status"`  // 400, or 404 for an item the API cannot find
	Message string `json:"message"`
	Param   string `json:"param,omitempty"`
	Code    string `json:"code,omitempty"`
}

func (v Violation) String() string {
	return fmt.Sprintf("request %d: %d %s", v.Request, v.Status, v.Message)
}

// check returns every rule of the API the request breaks, in input order. The messages
// are the API's own where it has one for the case (see the package comment).
func (l *ledger) check(r *request) []Violation {
	var vs []Violation
	bad := func(status int, param, code, format string, args ...any) {
		vs = append(vs, Violation{Status: status, Param: param, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	if r.PreviousResponseID != "" {
		bad(http.StatusBadRequest, "previous_response_id", "previous_response_not_found",
			"Previous response with id '%s' not found.", r.PreviousResponseID)
	}
	vs = append(vs, l.checkIDs(r.items)...)
	vs = append(vs, checkPairs(r.items)...)
	vs = append(vs, l.checkReasoning(r.items)...)
	return vs
}

// notPersisted is the API's answer to an item id it does not know when store is false.
func notPersisted(id string) Violation {
	return Violation{Status: http.StatusNotFound, Param: "input", Message: fmt.Sprintf(
		"Item with id '%s' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.", id)}
}

// checkIDs: ids are unique, have their type's prefix, and an id on an item of a type
// the model produces must be one the fake issued, for an item of that type (and, for a
// tool call, that call id): altering an issued id is as bad as inventing one.
func (l *ledger) checkIDs(items []item) []Violation {
	var vs []Violation
	count := map[string]int{}
	for i := range items {
		if id := items[i].ID; id != "" {
			if count[id]++; count[id] == 2 {
				vs = append(vs, Violation{Status: http.StatusBadRequest, Param: "input", Message: fmt.Sprintf(
					"Duplicate item found with id %s. Remove duplicate items from your input and try again.", id)})
			}
		}
	}
	for i := range items {
		it := &items[i]
		if it.ID == "" || count[it.ID] > 1 || !produced(it) {
			continue
		}
		p := idPrefix[it.Type]
		if !strings.HasPrefix(it.ID, p) {
			vs = append(vs, Violation{Status: http.StatusBadRequest, Param: "input[" + strconv.Itoa(i) + "].id", Message: fmt.Sprintf(
				"Invalid 'input[%d].id': '%s'. Expected an ID that begins with '%s'.", i, it.ID, p)})
			continue
		}
		is := l.byID[it.ID]
		if is == nil || is.typ != it.Type || (is.callID != "" && is.callID != it.CallID) {
			vs = append(vs, notPersisted(it.ID))
		}
	}
	return vs
}

// produced reports whether an item is of a kind only the model produces.
func produced(it *item) bool {
	switch it.Type {
	case typeReasoning, typeFunctionCall, typeCustomCall:
		return true
	case typeMessage:
		return it.Role == "assistant"
	}
	return false
}

// checkPairs: every tool call has exactly one output of its kind after it, and every
// output has its call before it.
func checkPairs(items []item) []Violation {
	var vs []Violation
	bad := func(format string, args ...any) {
		vs = append(vs, Violation{Status: http.StatusBadRequest, Param: "input", Message: fmt.Sprintf(format, args...)})
	}
	calls := map[string]int{}   // call id → index of its call
	outputs := map[string]int{} // call id → number of outputs after its call
	for i := range items {
		it := &items[i]
		if _, ok := outputType[it.Type]; ok {
			if _, dup := calls[it.CallID]; dup {
				bad("Duplicate tool call with call_id %s.", it.CallID) // the oracle's wording
				continue
			}
			calls[it.CallID] = i
			continue
		}
		ct, ok := callType[it.Type]
		if !ok {
			continue
		}
		j, found := calls[it.CallID]
		if !found || items[j].Type != ct {
			bad("No tool call found for %s output with call_id %s.", callNoun[ct], it.CallID)
			continue
		}
		if outputs[it.CallID]++; outputs[it.CallID] == 2 {
			bad("Duplicate %s output for call_id %s.", callNoun[ct], it.CallID) // the oracle's wording
		}
	}
	for i := range items {
		it := &items[i]
		if _, ok := outputType[it.Type]; ok && calls[it.CallID] == i && outputs[it.CallID] == 0 {
			bad("No tool output found for %s %s.", callNoun[it.Type], it.CallID)
		}
	}
	return vs
}

// checkReasoning: a reasoning item the fake issued comes back with the encrypted
// content it was issued with and is followed by the item produced right after it; an
// item produced after a reasoning item comes back with that reasoning item before it.
// The API can tell an item's reasoning is missing only from the item's id; for an item
// sent without its id (matched by call id) the oracle asks for the reasoning only after
// the last user message, where OpenAI's documentation says the reasoning items of a
// tool call must all be sent back: older ones may be dropped.
func (l *ledger) checkReasoning(items []item) []Violation {
	var vs []Violation
	at := map[string]int{} // issued id → index in items
	lastUser := -1
	for i := range items {
		if is := l.lookup(&items[i]); is != nil {
			at[is.id] = i
		}
		if items[i].Type == typeMessage && items[i].Role == "user" {
			lastUser = i
		}
	}
	for i := range items {
		it := &items[i]
		if it.Type != typeReasoning {
			continue
		}
		is := l.lookup(it)
		switch {
		case it.ID != "" && is != nil && it.EncryptedContent == nil:
			vs = append(vs, notPersisted(it.ID))
			continue
		case it.EncryptedContent != nil && (is == nil || *it.EncryptedContent != is.encrypted):
			vs = append(vs, Violation{Status: http.StatusBadRequest, Code: "invalid_encrypted_content", Message: fmt.Sprintf(
				"The encrypted content %s could not be verified.", abbreviate(*it.EncryptedContent))})
			continue
		case is == nil:
			continue // an id the fake did not issue: checkIDs has reported it
		}
		if is.follower == "" {
			continue
		}
		if j, ok := at[is.follower]; !ok || j != i+1 {
			vs = append(vs, Violation{Status: http.StatusBadRequest, Param: "input", Message: fmt.Sprintf(
				"Item '%s' of type 'reasoning' was provided without its required following item.", is.id)})
		}
	}
	for i := range items {
		it := &items[i]
		if it.Type == typeReasoning {
			continue
		}
		is := l.lookup(it)
		if is == nil || is.reasoning == "" || (it.ID == "" && i < lastUser) {
			continue
		}
		if j, ok := at[is.reasoning]; !ok || j >= i {
			vs = append(vs, Violation{Status: http.StatusBadRequest, Param: "input", Message: fmt.Sprintf(
				"Item '%s' of type '%s' was provided without its required 'reasoning' item: '%s'.", is.id, is.typ, is.reasoning)})
		}
	}
	return vs
}

// abbreviate shortens encrypted content the way the API's error does: gAAA...DQ==.
func abbreviate(s string) string {
	if len(s) <= 10 {
		return s
	}
	return s[:4] + "..." + s[len(s)-4:]
}
