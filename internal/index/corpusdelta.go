package index

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// The reads below let a reader of the whole index (package retrieve's
// corpus) bring what it derived at one generation up to another without
// reading everything again: the list of files with what identifies their
// content, then the definitions and documents of only the files that
// differ from what it holds.

// A FileKey identifies what the index holds of one file: a file whose
// key is unchanged has the same definitions (ids included) and the same
// documents.
type FileKey struct {
	ID       int64
	Path     string
	Language string
	Hash     string // content hash
	First    int64  // id of its first definition; its definitions have consecutive ids
	Symbols  int    // number of definitions
}

// FileKeys returns the key of every indexed file (the files
// ForEachFileDocs reads), in path order.
func (s *Snapshot) FileKeys(ctx context.Context) (_ []FileKey, err error) {
	defer s.classify(&err)
	rows, err := s.tx.QueryContext(ctx, `SELECT id, path, lang, hash, first_symbol, nsymbols
		FROM files WHERE skip = '' ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("read files: %w", err)
	}
	return scanFileKeys(rows, nil)
}

// scanFileKeys appends to keys the rows of a query of files' id, path,
// lang, hash, first_symbol and nsymbols, and closes rows.
func scanFileKeys(rows *sql.Rows, keys []FileKey) ([]FileKey, error) {
	defer rows.Close()
	for rows.Next() {
		var k FileKey
		var hash []byte
		if err := rows.Scan(&k.ID, &k.Path, &k.Language, &hash, &k.First, &k.Symbols); err != nil {
			return nil, fmt.Errorf("read files: %w", err)
		}
		k.Hash = string(hash)
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// ChangedSince returns the ids, sorted, of the files whose keys the
// updates since the index stamp from may have changed (wrote, moved or
// deleted), when those updates, up to the snapshot, were all this
// Index's own (commitLog); ok is false otherwise (another process's, a
// rebuild, none known). A writer of the corpus files brings the keys of
// from forward with them (FileKeysSince).
func (s *Snapshot) ChangedSince(ctx context.Context, from string) (changed []int64, ok bool, err error) {
	defer s.classify(&err)
	to, err := stamp(ctx, s.tx)
	if err != nil {
		return nil, false, err
	}
	changed, ok = s.ix.commits.since(from, to)
	return changed, ok, nil
}

// FileKeysSince returns what FileKeys does, from old, the keys as of an
// earlier stamp, and changed, the files ChangedSince that stamp: old's
// keys but those of changed, which are read again. A one-file update of
// sympy reads 1 row instead of 1,531.
func (s *Snapshot) FileKeysSince(ctx context.Context, old []FileKey, changed []int64) (keys []FileKey, err error) {
	defer s.classify(&err)
	keys = make([]FileKey, 0, len(old)+len(changed))
	for _, k := range old {
		if _, found := slices.BinarySearch(changed, k.ID); !found {
			keys = append(keys, k)
		}
	}
	for ids := changed; len(ids) > 0; {
		batch := ids[:min(len(ids), 500)]
		ids = ids[len(batch):]
		if keys, err = s.appendFileKeys(ctx, keys, batch); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(keys, func(a, b FileKey) int { return strings.Compare(a.Path, b.Path) }) // FileKeys' ORDER BY path
	return keys, nil
}

// appendFileKeys appends the keys of the indexed files among ids.
func (s *Snapshot) appendFileKeys(ctx context.Context, keys []FileKey, ids []int64) ([]FileKey, error) {
	rows, err := s.tx.QueryContext(ctx, `SELECT id, path, lang, hash, first_symbol, nsymbols
		FROM files WHERE skip = '' AND id IN (`+placeholders(len(ids))+`)`, int64Args(ids)...)
	if err != nil {
		return nil, fmt.Errorf("read files: %w", err)
	}
	return scanFileKeys(rows, keys)
}

// A commitLog remembers the index stamps and changed files of an
// Index's own updates, the last ones that followed each other with no
// other writer in between, for ChangedSince.
type commitLog struct {
	mu    sync.Mutex
	notes []commitNote
}

// A commitNote is one committed update: the stamps it went from and to,
// and the ids of the files whose keys it may have changed.
type commitNote struct {
	before, after string
	files         []int64
}

// commitLogSize bounds the notes kept: ChangedSince is asked about the
// last few.
const commitLogSize = 16

// note records a committed update. One that does not follow the last
// noted one (another process wrote in between) starts the log again.
func (l *commitLog) note(before, after string, files []int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.notes); n > 0 && l.notes[n-1].after != before {
		l.notes = l.notes[:0]
	}
	if len(l.notes) == commitLogSize {
		l.notes = slices.Delete(l.notes, 0, 1)
	}
	l.notes = append(l.notes, commitNote{before: before, after: after, files: slices.Clone(files)})
}

// reset forgets every update noted.
func (l *commitLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notes = nil
}

// since returns the ids, sorted, of the files the noted updates from
// stamp from to stamp to changed; ok is false unless the log holds every
// update in between.
func (l *commitLog) since(from, to string) (files []int64, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if from == "" || from == to {
		return nil, from != "" // nothing in between
	}
	for i, n := range l.notes {
		if n.before != from {
			continue
		}
		for _, m := range l.notes[i:] {
			files = append(files, m.files...)
			if m.after == to {
				slices.Sort(files)
				return slices.Compact(files), true
			}
		}
		return nil, false
	}
	return nil, false
}

// NumSymbols returns the number of definitions in the index: the running
// total every update keeps in meta, which counting the rows (a walk of
// every page of the table, 1.7 ms of a one-file update on sympy) would
// only confirm.
func (s *Snapshot) NumSymbols(ctx context.Context) (int, error) {
	return s.runningTotal(ctx, "symbols", "count symbols")
}

// ForEachBriefOf is ForEachBrief for the definitions of the given files
// only, in id order.
func (s *Snapshot) ForEachBriefOf(ctx context.Context, files []int64, fn func(*Brief) error) (err error) {
	defer s.classify(&err)
	if len(files) == 0 {
		return nil
	}
	return forEachBriefWhere(ctx, s.tx, "WHERE file_id IN ("+placeholders(len(files))+")", int64Args(files), fn)
}

// ForEachFileDocsOf is ForEachFileDocs for the given files only, in
// path order.
func (s *Snapshot) ForEachFileDocsOf(ctx context.Context, files []int64, fn func(*FileDocs) error) (err error) {
	defer s.classify(&err)
	if len(files) == 0 {
		return nil
	}
	return forEachFileDocsWhere(ctx, s.tx, "AND id IN ("+placeholders(len(files))+")", int64Args(files), fn)
}

func int64Args(xs []int64) []any {
	args := make([]any, len(xs))
	for i, x := range xs {
		args[i] = x
	}
	return args
}

// A delta file beside the corpus file brings it up to a later generation
// without rewriting it: what a reader derives from the files that
// changed since the corpus file was written, and the key of every file,
// in a container of its own (the corpus file's, with a layout of its
// own), which names the corpus file it applies to by key and checksum.
// It is cumulative (every delta applies to the corpus file, not to the
// delta before it), written atomically, and read only whole and
// checked: a delta of another generation, for another corpus file, or
// damaged is ignored, and the corpus rebuilt, never misread. See doc.go,
// "Corpus file".

// CorpusDeltaFileName is the delta file's name in the index directory.
const CorpusDeltaFileName = "corpus.delta"

// deltaLayout is the layout of a delta container for the corpus layout
// layout: its first section names the corpus file it applies to, the
// rest are the reader's.
func deltaLayout(layout string) string { return layout + "+delta/1" }

// CorpusDeltaPath is where the index's delta file lives.
func (ix *Index) CorpusDeltaPath() string { return filepath.Join(ix.dir, CorpusDeltaFileName) }

// A CorpusBase identifies a corpus file: its key and its checksum.
type CorpusBase struct {
	Key CorpusKey
	Sum uint32
}

// PeekCorpus reads the key and checksum of the corpus file and the
// sections numbered in want, and nothing else of it: not the other
// sections, nor the checksum over them. It is for a writer deciding what
// a delta against the file holds; a reader checks the whole file before
// it applies the delta (OpenCorpus). A file of another layout is
// ErrCorpusStale; lengths that do not hold are ErrCorpusDamaged.
func (ix *Index) PeekCorpus(layout string, want []int) (CorpusBase, [][]byte, error) {
	f, err := os.Open(ix.CorpusPath())
	if err != nil {
		return CorpusBase{}, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return CorpusBase{}, nil, err
	}
	size := fi.Size()
	tail := int64(len(corpusTrailer) + 4)
	if size < tail+int64(len(corpusMagic))+8 {
		return CorpusBase{}, nil, fmt.Errorf("%w: truncated", ErrCorpusDamaged)
	}
	head := make([]byte, min(size-tail, 4096))
	if _, err := f.ReadAt(head, 0); err != nil {
		return CorpusBase{}, nil, fmt.Errorf("read %s: %w", ix.CorpusPath(), err)
	}
	trailer := make([]byte, tail)
	if _, err := f.ReadAt(trailer, size-tail); err != nil {
		return CorpusBase{}, nil, fmt.Errorf("read %s: %w", ix.CorpusPath(), err)
	}
	if string(trailer[:len(corpusTrailer)]) != corpusTrailer {
		return CorpusBase{}, nil, fmt.Errorf("%w: truncated", ErrCorpusDamaged)
	}
	base := CorpusBase{Sum: binary.LittleEndian.Uint32(trailer[len(corpusTrailer):])}
	key, ok := corpusKeyOf(head)
	if !ok || string(head[:len(corpusMagic)]) != corpusMagic || binary.LittleEndian.Uint32(head[len(corpusMagic):]) != corpusVersion {
		return CorpusBase{}, nil, fmt.Errorf("%w: bad header", ErrCorpusDamaged)
	}
	if key.Layout != layout {
		return CorpusBase{}, nil, fmt.Errorf("%w: made for layout %q, not %q", ErrCorpusStale, key.Layout, layout)
	}
	base.Key = key
	n := int64(binary.LittleEndian.Uint32(head[len(corpusMagic)+4:]))
	table := int64(len(corpusMagic) + 8 + 8 + len(key.Layout) + len(key.Generation))
	table += (8 - table%8) % 8
	body := size - tail
	if n > maxSections || table+16*n > body {
		return CorpusBase{}, nil, fmt.Errorf("%w: bad section table", ErrCorpusDamaged)
	}
	entries := make([]byte, 16*n)
	if _, err := f.ReadAt(entries, table); err != nil {
		return CorpusBase{}, nil, fmt.Errorf("read %s: %w", ix.CorpusPath(), err)
	}
	sections := make([][]byte, len(want))
	for j, i := range want {
		if i < 0 || int64(i) >= n {
			return CorpusBase{}, nil, fmt.Errorf("%w: no section %d", ErrCorpusDamaged, i)
		}
		off := binary.LittleEndian.Uint64(entries[16*i:])
		sz := binary.LittleEndian.Uint64(entries[16*i+8:])
		if off%8 != 0 || off > uint64(body) || sz > uint64(body)-off {
			return CorpusBase{}, nil, fmt.Errorf("%w: section %d out of bounds", ErrCorpusDamaged, i)
		}
		sections[j] = alignedBytes(int(sz))
		if _, err := f.ReadAt(sections[j], int64(off)); err != nil {
			return CorpusBase{}, nil, fmt.Errorf("read %s: %w", ix.CorpusPath(), err)
		}
	}
	return base, sections, nil
}

// alignedBytes returns n bytes 8-byte aligned, as a section in a file is,
// so that a reader can use them as a flat array in place.
func alignedBytes(n int) []byte {
	words := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 8*len(words))[:n:n]
}

// WriteCorpusDelta writes the delta file: sections that bring the
// corpus file base up to key. Like WriteCorpus, it writes a temporary
// file and renames it into place.
func (ix *Index) WriteCorpusDelta(key CorpusKey, base CorpusBase, sections [][]byte) error {
	ref := appendString(nil, base.Key.Layout)
	ref = appendString(ref, base.Key.Generation)
	ref = binary.LittleEndian.AppendUint32(ref, base.Sum)
	all := append([][]byte{ref}, sections...)
	return writeFileAtomic(ix.CorpusDeltaPath(), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := writeCorpus(bw, CorpusKey{Layout: deltaLayout(key.Layout), Generation: key.Generation}, all); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// ReadCorpusDelta reads the delta file of the layout, whatever
// generation it was written at, checked whole: the key it brings the
// corpus file to, the corpus file it applies to and its sections (those
// after the container's own). A writer brings it forward (see
// ChangedSince); a reader opens it with OpenCorpus.
func (ix *Index) ReadCorpusDelta(layout string) (CorpusKey, CorpusBase, [][]byte, error) {
	buf, err := os.ReadFile(ix.CorpusDeltaPath())
	if err != nil {
		return CorpusKey{}, CorpusBase{}, nil, err
	}
	want, err := deltaKey(buf, layout)
	if err != nil {
		return CorpusKey{}, CorpusBase{}, nil, err
	}
	base, sections, err := splitDelta(buf, want)
	return want, base, sections, err
}

// deltaKey returns the key, from its header alone, that the delta file
// of the layout whose bytes start with head brings the corpus file to.
func deltaKey(head []byte, layout string) (CorpusKey, error) {
	key, ok := corpusKeyOf(head)
	if !ok || key.Layout != deltaLayout(layout) {
		return CorpusKey{}, fmt.Errorf("%w: not a delta of layout %q", ErrCorpusStale, layout)
	}
	return CorpusKey{Layout: layout, Generation: key.Generation}, nil
}

// readDelta reads the delta file for want: its sections and the corpus
// file it applies to. A delta of another generation or layout is
// ErrCorpusStale, a damaged one ErrCorpusDamaged, a missing one an error
// matching os.ErrNotExist.
func (ix *Index) readDelta(want CorpusKey) (CorpusBase, [][]byte, error) {
	f, head, err := ix.openDelta()
	if err != nil {
		return CorpusBase{}, nil, err
	}
	defer f.Close()
	// A delta of another generation, the one every update finds before
	// it writes its own (DeltaCurrent), is told from its first bytes.
	if key, ok := corpusKeyOf(head); ok && key != (CorpusKey{Layout: deltaLayout(want.Layout), Generation: want.Generation}) {
		return CorpusBase{}, nil, fmt.Errorf("%w: delta of %q, not %q", ErrCorpusStale, key.Generation, want.Generation)
	}
	// The rest read after the head, into one buffer of the file's size.
	fi, err := f.Stat()
	if err != nil {
		return CorpusBase{}, nil, fmt.Errorf("read %s: %w", ix.CorpusDeltaPath(), err)
	}
	buf := make([]byte, max(fi.Size(), int64(len(head))))
	n := copy(buf, head)
	if _, err := io.ReadFull(f, buf[n:]); err != nil {
		return CorpusBase{}, nil, fmt.Errorf("read %s: %w", ix.CorpusDeltaPath(), err)
	}
	return splitDelta(buf, want)
}

// openDelta opens the delta file and reads its first 4 KB, where its key
// is.
func (ix *Index) openDelta() (*os.File, []byte, error) {
	f, err := os.Open(ix.CorpusDeltaPath())
	if err != nil {
		return nil, nil, err
	}
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		f.Close()
		return nil, nil, fmt.Errorf("read %s: %w", ix.CorpusDeltaPath(), err)
	}
	return f, head[:n], nil
}

// CorpusDeltaGeneration returns the index stamp the delta file of the
// layout brings the corpus file to, from its header alone: not checked,
// for a writer deciding whether to read it (ReadCorpusDelta checks it).
func (ix *Index) CorpusDeltaGeneration(layout string) (string, error) {
	f, head, err := ix.openDelta()
	if err != nil {
		return "", err
	}
	f.Close()
	key, err := deltaKey(head, layout)
	return key.Generation, err
}

// splitDelta checks the bytes of a delta file for want and returns the
// corpus file it applies to and its sections.
func splitDelta(buf []byte, want CorpusKey) (CorpusBase, [][]byte, error) {
	sections, err := DecodeCorpus(buf, CorpusKey{Layout: deltaLayout(want.Layout), Generation: want.Generation})
	if err != nil {
		return CorpusBase{}, nil, err
	}
	if len(sections) == 0 {
		return CorpusBase{}, nil, fmt.Errorf("%w: delta without a base", ErrCorpusDamaged)
	}
	layout, r, ok := cutString(sections[0])
	gen, r, ok2 := cutString(r)
	if !ok || !ok2 || len(r) != 4 {
		return CorpusBase{}, nil, fmt.Errorf("%w: delta without a base", ErrCorpusDamaged)
	}
	base := CorpusBase{Key: CorpusKey{Layout: layout, Generation: gen}, Sum: binary.LittleEndian.Uint32(r)}
	return base, sections[1:], nil
}

// OpenCorpus reads (or, with mapped, maps: see MapCorpus) the corpus of
// the index at want: the corpus file's sections, when it is at want;
// else, when the delta file brings it there, the corpus file's sections,
// of the generation the delta applies to, and the delta's. Both files
// are checked whole, and the delta must name this corpus file by key and
// checksum. Anything else is ErrCorpusStale or ErrCorpusDamaged (or an
// error matching os.ErrNotExist if there is no corpus file): a reader
// builds the corpus then, and never misreads a file.
func (ix *Index) OpenCorpus(want CorpusKey, mapped bool) (base CorpusKey, sections, delta [][]byte, err error) {
	read := os.ReadFile
	if mapped {
		read = mapFile
	}
	buf, err := read(ix.CorpusPath())
	if err != nil {
		return CorpusKey{}, nil, nil, err
	}
	key, ok := corpusKeyOf(buf)
	if ok && key == want {
		sections, err := DecodeCorpus(buf, want)
		return want, sections, nil, err
	}
	db, delta, err := ix.readDelta(want)
	if err != nil {
		// No delta to want: the corpus file's own verdict, stale or damaged.
		if _, err := DecodeCorpus(buf, want); err != nil {
			return CorpusKey{}, nil, nil, err
		}
		return CorpusKey{}, nil, nil, ErrCorpusStale // not reached: the key differs
	}
	if !ok || db.Key != key || len(buf) < 4 || binary.LittleEndian.Uint32(buf[len(buf)-4:]) != db.Sum {
		return CorpusKey{}, nil, nil, fmt.Errorf("%w: the delta file is for another corpus file", ErrCorpusStale)
	}
	if sections, err = DecodeCorpus(buf, key); err != nil {
		return CorpusKey{}, nil, nil, err
	}
	return key, sections, delta, nil
}

// DeltaCurrent reports whether the delta file brings the corpus file as
// it is now to want, reading the delta's header and the corpus file's
// header and checksum only: a writer that finds it current has nothing
// to write. As with CorpusCurrent, a reader checks them whole.
func (ix *Index) DeltaCurrent(want CorpusKey) bool {
	db, _, err := ix.readDelta(want)
	if err != nil {
		return false
	}
	base, _, err := ix.PeekCorpus(want.Layout, nil)
	return err == nil && base == db
}

// runningTotal returns a table's number of rows from the running total
// of meta, counted when there is none; what names the count in an error.
func (s *Snapshot) runningTotal(ctx context.Context, table, what string) (_ int, err error) {
	defer s.classify(&err)
	var n int
	q := "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '" + table + "'), (SELECT count(*) FROM " + table + "))"
	if err := s.tx.QueryRowContext(ctx, q).Scan(&n); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return n, nil
}
