package index

import (
	"context"
	"os"
	"path/filepath"

	"github.com/winnowhq/winnow/internal/history"
)

// HistoryFile is the path of the index's git history file (package
// history), which retrieval reads; it may not exist.
func (ix *Index) HistoryFile() string { return filepath.Join(ix.dir, history.FileName) }

// updateHistory brings the git history file in line with the tree's
// HEAD after an update at tier. History is a signal, not part of the
// index: a repository git cannot read costs the signal and a warning,
// never the update. An update at the quick tier, which is there to
// answer in seconds, does not read a whole history (seconds of git on a
// large repository) when there is none yet: the full tier does.
func (ix *Index) updateHistory(ctx context.Context, tier Tier) {
	if tier == TierQuick {
		if _, err := os.Stat(ix.HistoryFile()); err != nil {
			return
		}
	}
	st, err := history.Update(ctx, ix.root, ix.HistoryFile(), &history.Options{Logger: ix.log})
	if err != nil {
		ix.log.Warn("git history not updated", "err", err)
		return
	}
	if st.Added > 0 {
		ix.log.Debug("git history updated", "head", st.Head, "commits", st.Commits, "added", st.Added, "rebuilt", st.Rebuilt)
	}
}
