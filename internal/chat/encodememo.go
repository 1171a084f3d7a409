package chat

import "bytes"

// An EncodeMemo remembers the bytes that changed messages encoded to, so
// that encoding the next request of a conversation, where a sticky
// rewrite leaves the same decoded message changed the same way, copies
// them instead of encoding the message again. A message is looked up by
// its origin and matches only if its role and parts, their origins
// included, equal those of the message remembered: what a codec writes
// for a message depends on nothing else.
//
// A memo is filled by one request and read by the next: NewEncodeMemo
// starts the memo of a request from that of the request it extends,
// which is never changed again, so any number of requests may read it at
// once. A nil *EncodeMemo remembers nothing.
type EncodeMemo struct {
	prev map[*msgOrigin]encodedMessage // read only
	next map[*msgOrigin]encodedMessage
	size int64
}

type encodedMessage struct {
	msg Message // a deep copy, as it was encoded
	raw []byte
}

// NewEncodeMemo returns an empty memo that also finds what prev
// remembered (prev may be nil). Only the messages looked up or remembered
// through the new memo are kept in it.
func NewEncodeMemo(prev *EncodeMemo) *EncodeMemo {
	e := &EncodeMemo{next: map[*msgOrigin]encodedMessage{}}
	if prev != nil {
		e.prev = prev.next
	}
	return e
}

// Encoded returns the bytes m was remembered to encode to, and false if
// m, as it is now, was not remembered. The result must not be modified.
func (e *EncodeMemo) Encoded(m *Message) ([]byte, bool) {
	if e == nil || m.orig == nil {
		return nil, false
	}
	for _, memo := range [2]map[*msgOrigin]encodedMessage{e.next, e.prev} {
		if em, ok := memo[m.orig]; ok && em.msg.sameAs(m) {
			e.keep(m.orig, em)
			return em.raw, true
		}
	}
	return nil, false
}

// Remember records that m, a decoded message, encodes to raw, which must
// not be modified afterwards.
func (e *EncodeMemo) Remember(m *Message, raw []byte) {
	if e == nil || m.orig == nil {
		return
	}
	e.keep(m.orig, encodedMessage{msg: Message{Role: m.Role, Parts: cloneParts(m.Parts), orig: m.orig}, raw: raw})
}

func (e *EncodeMemo) keep(o *msgOrigin, em encodedMessage) {
	if old, ok := e.next[o]; ok {
		e.size -= encodedSize(old)
	}
	e.next[o] = em
	e.size += encodedSize(em)
}

// Size returns about how many bytes the memo holds of its own.
func (e *EncodeMemo) Size() int64 {
	if e == nil {
		return 0
	}
	return e.size
}

func encodedSize(em encodedMessage) int64 {
	return int64(len(em.raw) + em.msg.TextLen() + 64*len(em.msg.Parts))
}

// sameAs reports whether m and o come from one decoded message and have
// the same role and parts, origins included.
func (m *Message) sameAs(o *Message) bool {
	return m.orig == o.orig && m.Role == o.Role && samePartFields(m.Parts, o.Parts)
}

func samePartFields(ps, qs []Part) bool {
	if len(ps) != len(qs) {
		return false
	}
	for i := range ps {
		p, q := &ps[i], &qs[i]
		if p.orig != q.orig || p.Type != q.Type || p.Text != q.Text || p.Signature != q.Signature ||
			p.Data != q.Data || p.ID != q.ID || p.Name != q.Name || p.IsError != q.IsError ||
			(p.Input == nil) != (q.Input == nil) || !bytes.Equal(p.Input, q.Input) ||
			(p.Content == nil) != (q.Content == nil) || !samePartFields(p.Content, q.Content) {
			return false
		}
	}
	return true
}
