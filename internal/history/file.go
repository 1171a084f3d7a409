package history

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sort"
	"sync"
)

// magic opens a history file; the byte after it is the format version.
const (
	magic         = "winnow-history\x00"
	formatVersion = 1
)

// errFormat means a history file is truncated, damaged or of another
// version: it is rebuilt, never read.
var errFormat = errors.New("not a history file of this version")

// A record is one commit in memory: its message's term counts and the
// files it changed.
type record struct {
	hash  []byte
	time  int64
	terms map[string]int // term → count in the message
	files []uint32       // into paths
	nterm int            // message length in terms
}

// data is the whole content of a history file, as Update builds it.
type data struct {
	head    string
	commits []record // newest first
	paths   []string
}

// encode writes d:
//
//	magic, version byte
//	head (uvarint length + bytes)
//	ncommits; per commit: hash (length + bytes), time, nterm, nfiles, file ids
//	npaths; per path: length + bytes
//	nterms; term offsets (uint32 each, into the postings section, sorted by term)
//	postings section: per term: length + bytes, npostings, (commit delta, count)…
//	CRC-32 (IEEE) of everything before it
func (d *data) encode() []byte {
	var b []byte
	b = append(b, magic...)
	b = append(b, formatVersion)
	b = appendString(b, d.head)
	b = binary.AppendUvarint(b, uint64(len(d.commits)))
	post := make(map[string][]uint32) // term → commits, ascending
	for ci, c := range d.commits {
		b = appendString(b, string(c.hash))
		b = binary.AppendUvarint(b, uint64(max(c.time, 0)))
		b = binary.AppendUvarint(b, uint64(c.nterm))
		b = binary.AppendUvarint(b, uint64(len(c.files)))
		for _, f := range c.files {
			b = binary.AppendUvarint(b, uint64(f))
		}
		for t := range c.terms {
			post[t] = append(post[t], uint32(ci))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(d.paths)))
	for _, p := range d.paths {
		b = appendString(b, p)
	}
	termList := make([]string, 0, len(post))
	for t := range post {
		termList = append(termList, t)
	}
	slices.Sort(termList)
	var sec []byte
	offsets := make([]byte, 0, 4*len(termList))
	for _, t := range termList {
		offsets = binary.LittleEndian.AppendUint32(offsets, uint32(len(sec)))
		sec = appendString(sec, t)
		cs := post[t]
		sec = binary.AppendUvarint(sec, uint64(len(cs)))
		prev := uint32(0)
		for _, ci := range cs {
			sec = binary.AppendUvarint(sec, uint64(ci-prev))
			sec = binary.AppendUvarint(sec, uint64(d.commits[ci].terms[t]))
			prev = ci
		}
	}
	b = binary.AppendUvarint(b, uint64(len(termList)))
	b = append(b, offsets...)
	b = append(b, sec...)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// A History is an opened history file: the commits and paths decoded,
// the term postings read on demand.
type History struct {
	head    string
	commits []commitEntry
	paths   []string
	avgLen  float64
	norms   []float64 // by commit: bm25Norm of its length
	offsets []byte    // nterms × uint32
	sec     []byte    // the postings section

	scratch sync.Pool // of *searchScratch
}

type commitEntry struct {
	hash  []byte
	time  int64
	nterm int
	files []uint32
}

// decoder reads the varint layout of a file, remembering the first
// error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errFormat
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a number of items that take at least one byte each, so
// that a damaged count cannot ask for more memory than the file holds.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = errFormat
		return 0
	}
	return int(n)
}

func (d *decoder) bytes() []byte {
	n := d.count()
	if d.err != nil {
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

// header checks the bytes of a history file whole (magic, version,
// checksum) and returns a decoder at its first field, the head.
func header(b []byte) (*decoder, error) {
	if len(b) < len(magic)+1+4 || string(b[:len(magic)]) != magic || b[len(magic)] != formatVersion {
		return nil, errFormat
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errFormat
	}
	return &decoder{b: body[len(magic)+1:]}, nil
}

// peek returns the head and the number of commits of the history file,
// checked whole but not decoded; ok is false for a file that is missing,
// damaged or of another version. Every update of the index asks, so the
// file is checked through a buffer of peekChunk bytes rather than read
// whole (on sympy 1 MB, of the 6.6 MB a one-file winnow index allocated).
func peek(file string) (head string, commits int, ok bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", 0, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", 0, false
	}
	body := fi.Size() - 4
	if body <= peekChunk {
		return peekBytes(file) // the file is a chunk: read it whole
	}
	buf := make([]byte, peekChunk)
	if _, err := io.ReadFull(f, buf); err != nil || string(buf[:len(magic)]) != magic || buf[len(magic)] != formatVersion {
		return "", 0, false
	}
	// The head and the count are in the first chunk; a count larger than
	// the rest of the chunk (more commits than bytes left in it), which
	// the whole file may hold, is left to peekBytes.
	d := &decoder{b: buf[len(magic)+1:]}
	head = string(d.bytes())
	commits = d.count()
	if d.err != nil {
		return peekBytes(file)
	}
	sum := crc32.NewIEEE()
	sum.Write(buf)
	if _, err := io.CopyBuffer(sum, io.LimitReader(f, body-peekChunk), buf); err != nil {
		return "", 0, false
	}
	var want [4]byte
	if _, err := io.ReadFull(f, want[:]); err != nil || sum.Sum32() != binary.LittleEndian.Uint32(want[:]) {
		return "", 0, false
	}
	return head, commits, true
}

// peekChunk is the buffer peek reads the history file through.
const peekChunk = 64 << 10

// peekBytes is peek reading the file whole.
func peekBytes(file string) (head string, commits int, ok bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", 0, false
	}
	d, err := header(b)
	if err != nil {
		return "", 0, false
	}
	head = string(d.bytes())
	commits = d.count()
	return head, commits, d.err == nil
}

// decode opens the bytes of a history file.
func decode(b []byte) (*History, error) {
	d, err := header(b)
	if err != nil {
		return nil, err
	}
	h := &History{head: string(d.bytes())}
	h.commits = make([]commitEntry, d.count())
	var total float64
	for i := range h.commits {
		c := &h.commits[i]
		c.hash = d.bytes()
		c.time = int64(d.uvarint())
		c.nterm = int(d.uvarint())
		c.files = make([]uint32, d.count())
		for j := range c.files {
			c.files[j] = uint32(d.uvarint())
		}
		total += float64(c.nterm)
	}
	h.paths = make([]string, d.count())
	for i := range h.paths {
		h.paths[i] = string(d.bytes())
	}
	nterms := d.count()
	if d.err != nil || uint64(nterms)*4 > uint64(len(d.b)) {
		return nil, errFormat
	}
	h.offsets, h.sec = d.b[:4*nterms], d.b[4*nterms:]
	for _, c := range h.commits {
		for _, f := range c.files {
			if int(f) >= len(h.paths) {
				return nil, errFormat
			}
		}
	}
	if len(h.commits) > 0 {
		h.avgLen = total / float64(len(h.commits))
	}
	h.norms = make([]float64, len(h.commits))
	for i, c := range h.commits {
		h.norms[i] = bm25Norm(c.nterm, h.avgLen)
	}
	return h, nil
}

// termAt returns the term at offset index i and the rest of its entry.
func (h *History) termAt(i int) (string, []byte, bool) {
	t, rest, ok := h.termBytesAt(i)
	return string(t), rest, ok
}

// termBytesAt is termAt with the term's bytes in the file, not copied.
func (h *History) termBytesAt(i int) ([]byte, []byte, bool) {
	off := binary.LittleEndian.Uint32(h.offsets[4*i:])
	if int(off) >= len(h.sec) {
		return nil, nil, false
	}
	d := decoder{b: h.sec[off:]}
	t := d.bytes()
	return t, d.b, d.err == nil
}

// entry returns a decoder at term's postings (their count first), or false
// when no commit's message holds term.
func (h *History) entry(term string) (decoder, bool) {
	n := len(h.offsets) / 4
	i := sort.Search(n, func(i int) bool {
		t, _, _ := h.termBytesAt(i)
		return string(t) >= term // compared in place, not copied
	})
	if i == n {
		return decoder{}, false
	}
	t, rest, ok := h.termBytesAt(i)
	if !ok || string(t) != term {
		return decoder{}, false
	}
	return decoder{b: rest}, true
}

// records turns an opened file back into the records Update extends.
func (h *History) records() *data {
	d := &data{head: h.head, paths: h.paths, commits: make([]record, len(h.commits))}
	for i, c := range h.commits {
		d.commits[i] = record{hash: bytes.Clone(c.hash), time: c.time, nterm: c.nterm, files: c.files, terms: make(map[string]int)}
	}
	for i := range len(h.offsets) / 4 {
		t, rest, ok := h.termAt(i)
		if !ok {
			continue
		}
		dec := &decoder{b: rest}
		ci := 0
		for range dec.count() {
			ci += int(dec.uvarint())
			cnt := int(dec.uvarint())
			if dec.err != nil || ci >= len(d.commits) {
				break
			}
			d.commits[ci].terms[t] = cnt
		}
	}
	return d
}

func (h *History) String() string {
	return fmt.Sprintf("history at %s: %d commits, %d paths", h.head, len(h.commits), len(h.paths))
}
