package telescope

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/store"
)

// idLen is the length of a node id in hex digits: 48 bits, so that a corpus of a million
// nodes has about a one-in-500 chance of one collision, and a collision is caught (the stored
// node's id and inputs are checked) rather than served.
const idLen = 12

var idPattern = lazy(`^[0-9a-f]{12}(\.[1-9][0-9]*)?$`)

// nodeID hashes a node's inputs, each part separated so that no two lists collide.
func nodeID(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:idLen]
}

// keySource is the source part of the keys of telescope nodes.
const keySource = "telescope"

// storeKey is where the node with id lives. The id already hashes the strategy, its version
// and settings, the level and the content, so the key is a function of the id alone and a
// drilldown needs nothing else to find a node.
func (e *Engine) storeKey(id string) string {
	return store.Key(keySource, nodeFormat, "node", 0, []byte(id))
}

// load returns the node with id from memory or the store. A store failure is a miss (and a
// warning): the caller recomputes, so a broken store costs time, never correctness. An entry
// that does not decode, or holds another node (a key collision), is a miss too.
func (e *Engine) load(ctx context.Context, id string) (*Node, bool, error) {
	e.mu.Lock()
	n, ok := e.memo[id]
	e.mu.Unlock()
	if ok {
		return n, true, nil
	}
	if e.store == nil {
		return nil, false, nil
	}
	b, ok, err := e.store.Get(ctx, e.storeKey(id))
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		e.log.Warn("telescope: store read failed; recomputing", "id", id, "error", err)
		return nil, false, err
	}
	if !ok {
		return nil, false, nil
	}
	n, err = decodeNode(b)
	if err != nil || n.ID != id {
		e.log.Warn("telescope: store entry does not hold its node; recomputing", "id", id)
		return nil, false, nil
	}
	e.remember(n)
	return n, true, nil
}

// save keeps n in memory and in the store. A store failure is returned for the stats but
// does not fail the build.
func (e *Engine) save(ctx context.Context, n *Node) error {
	e.remember(n)
	if e.store == nil {
		return nil
	}
	b, err := encodeNode(n)
	if err != nil {
		return err
	}
	if err := e.store.Put(ctx, e.storeKey(n.ID), b, e.ttl); err != nil {
		e.log.Warn("telescope: store write failed; the node lives in this process only", "id", n.ID, "error", err)
		return err
	}
	return nil
}

func (e *Engine) remember(n *Node) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.memo) >= maxMemo {
		clear(e.memo)
	}
	e.memo[n.ID] = n
}

// ErrBadID is returned for a string that cannot be a node id.
var ErrBadID = errors.New("not a telescope node id")

// checkID rejects what cannot be a node id, with a message saying what one looks like.
func checkID(id string) error {
	if !idPattern.MatchString(strings.TrimSpace(id)) {
		return fmt.Errorf("%q is %w: ids are %d hex digits, or a unit's id, a dot and a part number (e.g. 3fa9c2b71d04.2), as listed by telescope build and drilldown", id, ErrBadID, idLen)
	}
	return nil
}
