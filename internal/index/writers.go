package index

import (
	"context"
	"path/filepath"
	"time"
)

// The writers' lock is a lock file (flock), which the kernel gives to
// whoever asks for it once it is free, not to whoever waited longest. An
// upgrade releases it between its chunks and asks again at once, so a
// writer waiting meanwhile (a tool call's update in winnow mcp, another
// process's winnow index) could wait for the whole upgrade: the first
// answer of winnow mcp on sympy, due from the quick tier within seconds,
// came when the full tier was done, 11 to 18 s after the start. So this
// process's writers queue first, and take the lock file in turn (a
// channel's waiting senders are served in order); and an upgrade pauses
// for chunkYield between chunks, long enough for a writer of another
// process that the release woke to take it.
const chunkYield = 10 * time.Millisecond

// lockWriters waits for this process's turn, then for the lock file, and
// returns what releases both. It gives up waiting for its turn when ctx
// ends.
func (ix *Index) lockWriters(ctx context.Context) (unlock func(), err error) {
	if ix.writers != nil {
		select {
		case ix.writers <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	lock, err := lockFile(filepath.Join(ix.dir, "lock"), true)
	if err != nil {
		if ix.writers != nil {
			<-ix.writers
		}
		return nil, err
	}
	return func() {
		lock.unlock()
		if ix.writers != nil {
			<-ix.writers
		}
	}, nil
}
