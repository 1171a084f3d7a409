package index

import (
	"context"
	"fmt"
	"strconv"
)

// A Tier is how completely a file, or the whole index, has been read.
// Tiers only grow in value: a higher tier holds what a lower one does,
// more precisely.
type Tier uint8

const (
	// TierNone is an index that no update has written yet.
	TierNone Tier = 0
	// TierQuick files were read by the fast scanner (lang.Scanner): no
	// parse, definitions found by keywords, references by identifiers,
	// and, for languages without a scanner, lexical documents of the
	// whole file only.
	TierQuick Tier = 1
	// TierFull files were parsed with tree-sitter.
	TierFull Tier = 2
)

var tierNames = [...]string{TierNone: "none", TierQuick: "quick", TierFull: "full"}

func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return "tier(" + strconv.Itoa(int(t)) + ")"
}

// MarshalText writes the tier's name.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a tier's name.
func (t *Tier) UnmarshalText(b []byte) error {
	for i, name := range tierNames {
		if string(b) == name {
			*t = Tier(i)
			return nil
		}
	}
	return fmt.Errorf("unknown index tier %q (known: none, quick, full)", b)
}

// Tier returns the tier of the index as a whole: that of its least read
// file (the last update's, for an index without files), or TierNone
// before the first update. An index at TierQuick answers every query,
// less precisely; Update (without Options.QuickFirst) or Upgrade bring it
// to TierFull.
func (ix *Index) Tier(ctx context.Context) (_ Tier, err error) {
	defer ix.classify(&err)
	return readTier(ctx, ix.db)
}

// Tier is Index.Tier as of the snapshot.
func (s *Snapshot) Tier(ctx context.Context) (_ Tier, err error) {
	defer s.classify(&err)
	return readTier(ctx, s.tx)
}

func readTier(ctx context.Context, q querier) (Tier, error) {
	var t int
	err := q.QueryRowContext(ctx, "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'tier'), 0)").Scan(&t)
	if err != nil {
		return TierNone, fmt.Errorf("read index tier: %w", err)
	}
	return Tier(t), nil
}

// StampTier returns Stamp and Tier read together, so that the tier is
// that of the state the stamp names.
func (ix *Index) StampTier(ctx context.Context) (_ string, _ Tier, err error) {
	defer ix.classify(&err)
	var st string
	var t int
	err = ix.db.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = 'instance'), '') || '/' ||
		coalesce((SELECT value FROM meta WHERE key = 'generation'), ''),
		coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'tier'), 0)`).Scan(&st, &t)
	if err != nil {
		return "", TierNone, fmt.Errorf("read index generation: %w", err)
	}
	return st, Tier(t), nil
}

// setTier records the tier of the index as a whole at the end of an
// update at tier: the lowest tier of its indexed files, or tier when it
// has none.
func (w *writer) setTier(ctx context.Context, tier Tier) error {
	_, err := w.exec(ctx, `INSERT INTO meta(key, value)
		VALUES ('tier', coalesce((SELECT min(tier) FROM files WHERE skip = ''), ?))
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, int(tier))
	return wrap("record the index tier", err)
}
