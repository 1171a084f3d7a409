// Package wire provides what the chat codecs share around their own
// message and content shapes: splitting a request body into its messages
// and decoding each with the codec's message decoder, extending an
// earlier decode with the messages a later request appends, and the
// encoding steps every codec takes (messages through an EncodeMemo,
// content arrays, unchanged blocks, top-level fields). It knows nothing
// of any dialect's blocks; those stay in the codec packages.
package wire

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
)

// A Codec is what a dialect adds to the shared request skeleton.
type Codec struct {
	// Dialect is the dialect of the conversations it decodes.
	Dialect chat.Dialect
	// Name prefixes its errors: "decode <Name> request: ...".
	Name string
	// Array names the member holding the messages; "messages" if empty.
	Array string
	// Message decodes one element of the messages array, raw, split as
	// obj if the decoder split it already (else obj is nil).
	Message func(raw []byte, obj *rawjson.Object) (chat.Message, error)
	// String, if not nil, decodes a string where the array belongs as the
	// request's one message (the Responses API's "input": "Hi"). Without
	// it such a body is not a request of the dialect.
	String func(raw []byte) (chat.Message, error)
	// Build assembles the conversation of raw, split as req, with msgs
	// decoded. If nil, every member but the messages is a Field (Fields).
	Build func(raw []byte, req *rawjson.Request, msgs []chat.Message) (*chat.Conversation, error)
}

// build calls c.Build, or assembles the conversation as Fields does.
func (c *Codec) build(raw []byte, req *rawjson.Request, msgs []chat.Message) (*chat.Conversation, error) {
	if c.Build != nil {
		return c.Build(raw, req, msgs)
	}
	conv := &chat.Conversation{Dialect: c.Dialect, Messages: msgs, Fields: Fields(req.Obj, c.array())}
	conv.MarkDecodedLayout(raw, req)
	return conv, nil
}

// Fields returns the members of obj but those named in skip (the messages
// array, and any the codec models otherwise) as Fields, in order, their
// values copied.
func Fields(obj *rawjson.Object, skip ...string) []chat.Field {
	var fs []chat.Field
	for _, m := range obj.Members {
		if !slices.Contains(skip, m.Key) {
			fs = append(fs, chat.Field{Name: m.Key, Value: bytes.Clone(obj.Value(m))})
		}
	}
	return fs
}

// Decode parses a request body with a messages array. The result
// remembers body (a private copy). It fails on a body that is not valid
// JSON (chat.ErrMalformed), that is not an object or has no messages
// array (chat.ErrShape), and as c.Message or c.Build fail.
func (c *Codec) Decode(body []byte) (*chat.Conversation, error) {
	return c.decode(bytes.Clone(body))
}

// DecodeShared is Decode that remembers body itself, not a copy: the
// caller must not modify body while the result is in use.
func (c *Codec) DecodeShared(body []byte) (*chat.Conversation, error) {
	return c.decode(body)
}

// decode decodes raw, which the result keeps. One pass checks raw and
// splits it down to every object in it (rawjson.ParseDocument), so that
// the messages and their blocks are not scanned again to be split.
func (c *Codec) decode(raw []byte) (*chat.Conversation, error) {
	doc, err := rawjson.ParseDocument(raw)
	if errors.Is(err, rawjson.ErrSyntax) {
		return nil, fmt.Errorf("decode %s request: %w", c.Name, chat.ErrMalformed)
	}
	var req *rawjson.Request
	if err == nil {
		req, err = rawjson.RequestOf(doc, c.array())
	}
	switch {
	case errors.Is(err, rawjson.ErrNotArray) && c.String != nil:
		return c.decodeString(raw, doc)
	case errors.Is(err, rawjson.ErrNotArray):
		return nil, fmt.Errorf("decode %s request: %s is not an array: %w", c.Name, c.array(), chat.ErrShape)
	case err != nil:
		return nil, fmt.Errorf("decode %s request: body is not a JSON object: %w", c.Name, chat.ErrShape)
	case req.Messages < 0:
		return nil, fmt.Errorf("decode %s request: no %s: %w", c.Name, c.array(), chat.ErrShape)
	}
	msgs := make([]chat.Message, len(req.Elems))
	if err := c.decodeElements(msgs, req, 0, raw, 0, doc.Members[req.Messages].Array); err != nil {
		return nil, err
	}
	return c.build(raw, req, msgs)
}

func (c *Codec) array() string {
	if c.Array == "" {
		return "messages"
	}
	return c.Array
}

// decodeString decodes raw, split as obj, a request whose messages member
// is not an array, with c.String if that member is a string. The Request
// recorded has no Elems, so no later body extends it.
func (c *Codec) decodeString(raw []byte, obj *rawjson.Object) (*chat.Conversation, error) {
	i := obj.Last(c.array())
	v := obj.Value(obj.Members[i])
	if v[0] != '"' {
		return nil, fmt.Errorf("decode %s request: %s is neither an array nor a string: %w", c.Name, c.array(), chat.ErrShape)
	}
	m, err := c.String(v)
	if err != nil {
		return nil, fmt.Errorf("decode %s request: %s: %w", c.Name, c.array(), err)
	}
	return c.build(raw, &rawjson.Request{Obj: obj, Key: c.array(), Messages: i}, []chat.Message{m})
}

// DecodeExtending decodes body, which repeats prev's body byte for byte
// up to the end of prev's last message, decoding only what follows and
// sharing prev's decoded messages. It reports false, with no error, when
// body does not extend prev, or prev is not an unchanged result of
// c.Decode or c.DecodeExtending.
func (c *Codec) DecodeExtending(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error) {
	return c.decodeExtending(prev, body, true)
}

// DecodeExtendingShared is DecodeExtending that remembers body itself,
// not a copy: the caller must not modify body while the result is in
// use.
func (c *Codec) DecodeExtendingShared(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error) {
	return c.decodeExtending(prev, body, false)
}

func (c *Codec) decodeExtending(prev *chat.Conversation, body []byte, copyBody bool) (*chat.Conversation, bool, error) {
	pr, ok := prev.Layout().(*rawjson.Request)
	src, _ := prev.Source()
	if !ok || prev.Dialect != c.Dialect || len(prev.Messages) != len(pr.Elems) || !prev.Unchanged() {
		return nil, false, nil
	}
	end := pr.MessagesEnd()
	if end < 0 || len(body) <= end || !bytes.Equal(body[:end], src[:end]) {
		return nil, false, nil
	}
	raw := body
	if copyBody {
		raw = bytes.Clone(body)
	}
	req, from, err := rawjson.ExtendRequest(pr, raw)
	if err != nil {
		return nil, true, fmt.Errorf("decode %s request: %w: %w", c.Name, chat.ErrMalformed, err)
	}
	msgs := make([]chat.Message, len(req.Elems))
	copy(msgs, prev.Messages)
	// The new messages keep their own copy of their bytes, not raw: a
	// later request that extends this one shares them, and must not keep
	// this whole body alive.
	var tail []byte
	base := 0
	if from < len(req.Elems) {
		base = req.Elems[from][0]
		tail = bytes.Clone(raw[base:req.Elems[len(req.Elems)-1][1]])
	}
	if err := c.decodeElements(msgs, req, from, tail, base, nil); err != nil {
		return nil, true, err
	}
	conv, err := c.build(raw, req, msgs)
	return conv, true, err
}

// parallelBytes is how many bytes of messages a decode must have before
// it decodes them on more than one CPU: below it the goroutines cost more
// than they save; above it, a megabyte of history is decoded in half the
// time on two CPUs.
const parallelBytes = 128 << 10

// decodeElements decodes req's messages from index from on into msgs,
// reading each from buf, which holds raw's bytes from offset base on, and
// taking those that arr, the messages array split with its document, has
// split (arr may be nil). A long run of messages is split into runs of
// about equal bytes, decoded on up to GOMAXPROCS goroutines; the error is
// the first message's to fail, as one at a time.
func (c *Codec) decodeElements(msgs []chat.Message, req *rawjson.Request, from int, buf []byte, base int, arr *rawjson.ArraySpans) error {
	decode := func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			s, e := req.Elems[i][0]-base, req.Elems[i][1]-base
			var obj *rawjson.Object
			if arr != nil {
				obj = arr.Object(i)
			}
			m, err := c.Message(buf[s:e:e], obj)
			if err != nil {
				return fmt.Errorf("decode %s request: %s[%d]: %w", c.Name, c.array(), i, err)
			}
			msgs[i] = m
		}
		return nil
	}
	n := len(req.Elems)
	if from == n {
		return nil
	}
	first, total := req.Elems[from][0], req.Elems[n-1][1]-req.Elems[from][0]
	workers := min(runtime.GOMAXPROCS(0), total/(parallelBytes/2))
	errs := make([]error, max(workers, 1))
	var wg sync.WaitGroup
	lo := from
	for w := 1; w < workers; w++ {
		hi := lo
		for hi < n && req.Elems[hi][0]-first < total*w/workers {
			hi++
		}
		l := lo
		wg.Go(func() { errs[w-1] = decode(l, hi) })
		lo = hi
	}
	errs[len(errs)-1] = decode(lo, n)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// MessageObject parses raw, one element of the messages array, as an
// object with a string role, unless obj, raw split already, is not nil.
// It fails (chat.ErrShape) on anything else.
func MessageObject(raw []byte, obj *rawjson.Object) (*rawjson.Object, chat.Role, error) {
	obj, err := rawjson.ObjectOf(obj, raw)
	if err != nil {
		return nil, "", fmt.Errorf("not an object: %w", chat.ErrShape)
	}
	rv, _ := obj.Get("role")
	role, ok := rawjson.String(rv)
	if !ok {
		return nil, "", fmt.Errorf("no string role: %w", chat.ErrShape)
	}
	return obj, chat.Role(role), nil
}
