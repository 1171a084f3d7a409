package index

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
)

// A corpus file persists what a reader derives from the index, so that a
// process opens it instead of rebuilding it from the database. This file
// is the container: a header naming the format, the reader's layout and
// the index generation it was derived from, a table of sections, the
// sections themselves (8-byte aligned, so flat arrays can be used in
// place), and a CRC-32C of everything before it. What the sections hold
// is the reader's business (package retrieve's corpus). See doc.go,
// "Corpus file".

// CorpusFileName is the corpus file's name in the index directory.
const CorpusFileName = "corpus.bin"

const (
	corpusMagic   = "WNWCORP\x00"
	corpusVersion = 1 // the container's layout; bump on any change to it
	corpusTrailer = "WNWEND\x00\x00"
	maxSections   = 1 << 10
)

// ErrCorpusStale means a corpus file exists but does not belong to the
// index as it is (another generation or another layout): rebuild it.
var ErrCorpusStale = errors.New("corpus file is stale")

// ErrCorpusDamaged means a corpus file is truncated, corrupt or not a
// corpus file at all: rebuild it.
var ErrCorpusDamaged = errors.New("corpus file is damaged")

// CorpusPath is where the index's corpus file lives.
func (ix *Index) CorpusPath() string { return filepath.Join(ix.dir, CorpusFileName) }

// A CorpusKey says what a corpus file was derived from: the reader's
// layout (its name and version, which the reader bumps when what it
// stores changes) and the index generation.
type CorpusKey struct {
	Layout     string
	Generation string
}

// EncodeCorpus lays out sections in the container.
func EncodeCorpus(key CorpusKey, sections [][]byte) []byte {
	var buf bytes.Buffer
	writeCorpus(&buf, key, sections) // a bytes.Buffer does not fail
	return buf.Bytes()
}

// writeCorpus writes the container of sections to w, copying nothing: a
// corpus of tens of megabytes goes from the sections to the file.
func writeCorpus(w io.Writer, key CorpusKey, sections [][]byte) error {
	head := append([]byte(corpusMagic), 0, 0, 0, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(head[len(corpusMagic):], corpusVersion)
	binary.LittleEndian.PutUint32(head[len(corpusMagic)+4:], uint32(len(sections)))
	head = appendString(head, key.Layout)
	head = appendString(head, key.Generation)
	head = pad8(head)
	table := len(head)
	head = append(head, make([]byte, 16*len(sections))...)
	off := len(head)
	for i, s := range sections {
		off += (8 - off%8) % 8
		binary.LittleEndian.PutUint64(head[table+16*i:], uint64(off))
		binary.LittleEndian.PutUint64(head[table+16*i+8:], uint64(len(s)))
		off += len(s)
	}
	cw := &crcWriter{w: w}
	var zeros [8]byte
	cw.write(head)
	n := len(head)
	for _, s := range sections {
		cw.write(zeros[:(8-n%8)%8])
		n += (8 - n%8) % 8
		cw.write(s)
		n += len(s)
	}
	cw.write(zeros[:(8-n%8)%8])
	cw.write([]byte(corpusTrailer))
	cw.write(binary.LittleEndian.AppendUint32(nil, cw.crc))
	return cw.err
}

// A crcWriter writes through to w, keeping the CRC-32C of what it wrote
// and the first error.
type crcWriter struct {
	w   io.Writer
	crc uint32
	err error
}

func (cw *crcWriter) write(b []byte) {
	if cw.err != nil || len(b) == 0 {
		return
	}
	cw.crc = crc32.Update(cw.crc, castagnoli, b)
	_, cw.err = cw.w.Write(b)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func appendString(buf []byte, s string) []byte {
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(s)))
	return append(buf, s...)
}

func pad8(buf []byte) []byte {
	for len(buf)%8 != 0 {
		buf = append(buf, 0)
	}
	return buf
}

// DecodeCorpus checks a container and returns its sections, which alias
// buf. A container that is damaged in any way is ErrCorpusDamaged; one
// of another key is ErrCorpusStale. The key in the header is compared
// before the checksum is computed, so a stale file is told from the
// header alone (a damaged header reads as stale or damaged: either way
// the file is rebuilt); nothing else is trusted before the checksum
// holds, and every length is checked against buf.
func DecodeCorpus(buf []byte, want CorpusKey) ([][]byte, error) {
	key, body, err := corpusHeader(buf)
	if err != nil {
		return nil, err
	}
	if key != want {
		return nil, fmt.Errorf("%w: made for layout %q at generation %q, the index is at %q (layout %q)", ErrCorpusStale, key.Layout, key.Generation, want.Generation, want.Layout)
	}
	end := len(buf) - 4
	if crc32.Checksum(buf[:end], castagnoli) != binary.LittleEndian.Uint32(buf[end:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorpusDamaged)
	}
	return corpusSections(buf, body, nil)
}

// corpusHeader reads the key of a container and checks its frame: magic,
// version, trailer. body is where the section table starts.
func corpusHeader(buf []byte) (key CorpusKey, body int, err error) {
	if len(buf) < len(corpusMagic)+8 || string(buf[:len(corpusMagic)]) != corpusMagic {
		return CorpusKey{}, 0, fmt.Errorf("%w: not a corpus file", ErrCorpusDamaged)
	}
	if v := binary.LittleEndian.Uint32(buf[len(corpusMagic):]); v != corpusVersion {
		return CorpusKey{}, 0, fmt.Errorf("%w: container version %d, this winnow reads %d", ErrCorpusStale, v, corpusVersion)
	}
	end := len(buf) - 4
	if end < len(corpusTrailer) || string(buf[end-len(corpusTrailer):end]) != corpusTrailer {
		return CorpusKey{}, 0, fmt.Errorf("%w: truncated", ErrCorpusDamaged)
	}
	if end-len(corpusTrailer) < len(corpusMagic)+8 {
		return CorpusKey{}, 0, fmt.Errorf("%w: bad header", ErrCorpusDamaged)
	}
	r := buf[len(corpusMagic)+8 : end-len(corpusTrailer)]
	layout, r, ok := cutString(r)
	gen, r, ok2 := cutString(r)
	if !ok || !ok2 || binary.LittleEndian.Uint32(buf[len(corpusMagic)+4:]) > maxSections {
		return CorpusKey{}, 0, fmt.Errorf("%w: bad header", ErrCorpusDamaged)
	}
	return CorpusKey{Layout: layout, Generation: gen}, end - len(corpusTrailer) - len(r), nil
}

// corpusSections returns the sections of a container whose header
// corpusHeader read, or only those numbered in want; they alias buf. The
// table of sections is checked against buf, as every section.
func corpusSections(buf []byte, table int, want []int) ([][]byte, error) {
	n := int(binary.LittleEndian.Uint32(buf[len(corpusMagic)+4:]))
	body := len(buf) - 4 - len(corpusTrailer)
	table += (8 - table%8) % 8
	if table+16*n > body {
		return nil, fmt.Errorf("%w: bad section table", ErrCorpusDamaged)
	}
	if want == nil {
		want = make([]int, n)
		for i := range want {
			want[i] = i
		}
	}
	sections := make([][]byte, len(want))
	for j, i := range want {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("%w: no section %d", ErrCorpusDamaged, i)
		}
		off := binary.LittleEndian.Uint64(buf[table+16*i:])
		size := binary.LittleEndian.Uint64(buf[table+16*i+8:])
		if off%8 != 0 || off > uint64(body) || size > uint64(body)-off {
			return nil, fmt.Errorf("%w: section %d out of bounds", ErrCorpusDamaged, i)
		}
		sections[j] = buf[off : off+size : off+size]
	}
	return sections, nil
}

func cutString(r []byte) (string, []byte, bool) {
	if len(r) < 4 {
		return "", nil, false
	}
	n := binary.LittleEndian.Uint32(r)
	if uint64(n) > uint64(len(r)-4) {
		return "", nil, false
	}
	return string(r[4 : 4+n]), r[4+n:], true
}

// ReadCorpus reads the corpus file of the index and returns its sections
// (see DecodeCorpus). A missing file is an error matching os.ErrNotExist.
func (ix *Index) ReadCorpus(want CorpusKey) ([][]byte, error) {
	buf, err := os.ReadFile(ix.CorpusPath())
	if err != nil {
		return nil, err
	}
	return DecodeCorpus(buf, want)
}

// CorpusCurrent reports whether the corpus file's header names want,
// reading the header alone: a writer that finds it current has nothing
// to write. A file that is current by its header may still be damaged;
// its reader finds out, and rebuilds it.
func (ix *Index) CorpusCurrent(want CorpusKey) bool {
	f, err := os.Open(ix.CorpusPath())
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 32+len(want.Layout)+len(want.Generation))
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if n < len(corpusMagic)+8 || string(head[:len(corpusMagic)]) != corpusMagic || binary.LittleEndian.Uint32(head[len(corpusMagic):]) != corpusVersion {
		return false
	}
	layout, r, ok := cutString(head[len(corpusMagic)+8:])
	gen, _, ok2 := cutString(r)
	return ok && ok2 && layout == want.Layout && gen == want.Generation
}

// MapCorpus is ReadCorpus with the file mapped into memory rather than
// read: nothing is copied, and the pages are the page cache's. The
// mapping is never undone, since the sections (and whatever a reader
// made of them, strings included) alias it, and it keeps the file's
// data alive after a newer file replaces it: it is for processes that
// open one corpus and exit, like one winnow context. Writers replace the
// file by renaming (WriteCorpus), never rewrite it in place, so a mapped
// file does not change under its reader. Where mapping is not available
// the file is read.
func (ix *Index) MapCorpus(want CorpusKey) ([][]byte, error) {
	buf, err := mapFile(ix.CorpusPath())
	if err != nil {
		return nil, err
	}
	return DecodeCorpus(buf, want)
}

// WriteCorpus writes the corpus file atomically: into a temporary file
// in the index directory, then renamed over the old one, so a reader
// sees the old file or the new one, never a part. It is not synced: the
// file is a cache, and one that a crash left half-written fails its
// checksum and is rebuilt.
func (ix *Index) WriteCorpus(key CorpusKey, sections [][]byte) error {
	return writeFileAtomic(ix.CorpusPath(), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20) // large sections bypass it
		if err := writeCorpus(bw, key, sections); err != nil {
			return err
		}
		return bw.Flush()
	})
}

func writeAtomic(path string, data []byte) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeFileAtomic writes path with write: into a temporary file in its
// directory, renamed over path when complete.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil { // CreateTemp makes it 0600; the index is 0644
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Stamp names the state of the index for files derived from it: the
// database's instance (made when it was created, so an index deleted and
// built again never matches a file of the old one) and its generation.
func (ix *Index) Stamp(ctx context.Context) (_ string, err error) {
	defer ix.classify(&err)
	return stamp(ctx, ix.db)
}

// Stamp is Index.Stamp as of the snapshot.
func (s *Snapshot) Stamp(ctx context.Context) (_ string, err error) {
	defer s.classify(&err)
	return stamp(ctx, s.tx)
}

func stamp(ctx context.Context, q querier) (string, error) {
	var st string
	err := q.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = 'instance'), '') || '/' ||
		coalesce((SELECT value FROM meta WHERE key = 'generation'), '')`).Scan(&st)
	if err != nil {
		return "", fmt.Errorf("read index generation: %w", err)
	}
	return st, nil
}

// ReadCorpusLayout reads (or, with mapped, maps: see MapCorpus) the
// corpus file of the index whatever generation it was made at, as long
// as it has the layout, and returns its key and sections. A reader that
// can bring a corpus of an older generation up to date starts from it.
func (ix *Index) ReadCorpusLayout(layout string, mapped bool) (CorpusKey, [][]byte, error) {
	var buf []byte
	var err error
	if mapped {
		buf, err = mapFile(ix.CorpusPath())
	} else {
		buf, err = os.ReadFile(ix.CorpusPath())
	}
	if err != nil {
		return CorpusKey{}, nil, err
	}
	key, ok := corpusKeyOf(buf)
	if !ok {
		return CorpusKey{}, nil, fmt.Errorf("%w: bad header", ErrCorpusDamaged)
	}
	if key.Layout != layout {
		return CorpusKey{}, nil, fmt.Errorf("%w: made for layout %q, not %q", ErrCorpusStale, key.Layout, layout)
	}
	sections, err := DecodeCorpus(buf, key)
	return key, sections, err
}

// corpusKeyOf reads the key in a corpus file's header.
func corpusKeyOf(buf []byte) (CorpusKey, bool) {
	if len(buf) < len(corpusMagic)+8 || string(buf[:len(corpusMagic)]) != corpusMagic {
		return CorpusKey{}, false
	}
	layout, r, ok := cutString(buf[len(corpusMagic)+8:])
	gen, _, ok2 := cutString(r)
	return CorpusKey{Layout: layout, Generation: gen}, ok && ok2
}
