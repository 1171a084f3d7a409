package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/store"
)

func (a *app) storeCommand() *cobra.Command {
	var url string
	cmd := &cobra.Command{
		Use:   "store",
		Short: "Inspect and clean the cache of compaction results and telescope nodes",
		Long: `The store is winnow's content-addressed cache: results computed once are
reused by every later run, and by every process and machine that shares it.

By default it is a SQLite file, store.db in the cache directory. A team or a
fleet shares one Redis instead, named in the user configuration
($WINNOW_CONFIG or ~/.config/winnow/config.toml), never a repository's:
  [store]
  url = "redis://cache.internal:6379/0"
  ttl = "30d"      # how long an entry lives; gc removes the older ones`,
	}
	cmd.PersistentFlags().StringVar(&url, "store", "", `store URL, replacing [store] url: "sqlite:///path.db" or "redis://host:port/db"`)
	cmd.AddCommand(a.storeStatsCommand(&url), a.storeGCCommand(&url))
	return cmd
}

func (a *app) storeStatsCommand(url *string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Report the store's hit rate, entries and bytes",
		Long: `Stats reports the totals of the store, shared by every process that uses it:
lookups that hit and missed, the live entries and the bytes of their values,
and the entries past their TTL that 'winnow store gc' would remove.`,
		Example: `  winnow store stats
  winnow store stats --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, where, err := a.openStore(cmd.Context(), *url)
			if err != nil {
				return err
			}
			defer s.Close()
			st, err := s.Stats(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, storeStatsJSON{Store: where, Stats: st, HitRate: st.HitRate()})
			}
			return writeStoreStats(a.stdout, where, st)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the totals as JSON")
	return cmd
}

func (a *app) storeGCCommand(url *string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Remove the entries whose TTL has passed",
		Long: `Gc removes the entries older than their TTL ([store] ttl, 30 days by default)
and, for SQLite, gives their space back to the file system. Expired entries are
never returned, so gc only saves space; running it while other processes use
the store is safe.`,
		Example: `  winnow store gc
  winnow store gc --store redis://cache.internal:6379/0 --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, where, err := a.openStore(cmd.Context(), *url)
			if err != nil {
				return err
			}
			defer s.Close()
			n, err := s.Expire(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, struct {
					Store   string `json:"store"`
					Removed int    `json:"removed"`
				}{where, n})
			}
			_, err = fmt.Fprintf(a.stdout, "removed %d expired %s from %s\n", n, plural(n, "entry", "entries"), where)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// openStore opens the store of the user configuration (never a repository's .winnow.toml,
// which must not choose where digests of the user's code go), or the one url names. It
// returns where the store is, credentials redacted, for messages.
func (a *app) openStore(ctx context.Context, url string) (store.Store, string, error) {
	cfg, err := a.loadConfig("")
	if err != nil {
		return nil, "", err
	}
	return a.openUserStore(ctx, cfg, url)
}

// openUserStore opens the store of user, the user's own configuration, or the one url
// names, and returns it with where it is, for messages.
func (a *app) openUserStore(ctx context.Context, user *config.Config, url string) (store.Store, string, error) {
	cfg := *user
	if url != "" {
		cfg.Store.URL = url
		if err := cfg.Validate(); err != nil {
			return nil, "", usageError{fmt.Errorf("--store: %w", err)}
		}
	}
	cacheDir, err := cfg.CacheDir()
	if err != nil {
		return nil, "", err
	}
	where := store.Redact(cfg.Store.URL)
	if cfg.Store.URL == "" {
		where = "sqlite://" + filepath.Join(cacheDir, store.DefaultFile)
	}
	s, err := store.Open(ctx, cfg.Store.URL, &store.Options{
		DefaultTTL: cfg.Store.TTL.Duration(),
		CacheDir:   cacheDir,
		Logger:     a.logger(),
	})
	if err != nil {
		return nil, "", err
	}
	return s, where, nil
}

// storeStatsJSON is the output of `winnow store stats --json`.
type storeStatsJSON struct {
	Store string `json:"store"`
	store.Stats
	HitRate float64 `json:"hit_rate"`
}

func writeStoreStats(w io.Writer, where string, st store.Stats) error {
	rate := "n/a (no lookups yet)"
	if st.Hits+st.Misses > 0 {
		rate = fmt.Sprintf("%.1f%%", 100*st.HitRate())
	}
	_, err := fmt.Fprintf(w, `store     %s
entries   %d (%s)
expired   %d awaiting gc
hits      %d
misses    %d
hit rate  %s
`, where, st.Entries, byteSize(st.Bytes), st.Expired, st.Hits, st.Misses, rate)
	return err
}

// byteSize formats n bytes with a binary unit: 512 B, 4.2 KiB, 1.0 GiB.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
