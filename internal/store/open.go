package store

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Open returns the store the URL names:
//
//	""                          SQLite, DefaultFile in opts.CacheDir (default os.UserCacheDir()/winnow)
//	"sqlite:///abs/path.db"     SQLite, the file at that absolute path
//	"redis://[user:pass@]host:port/db"   Redis (rediss:// for TLS; go-redis URL options apply)
//
// SQLite files and their directories are created as needed. A Redis store does not connect
// until its first command. Errors never show the URL's credentials.
func Open(ctx context.Context, rawURL string, opts *Options) (Store, error) {
	o := opts.resolved()
	if o.DefaultTTL < 0 || o.DefaultTTL > MaxTTL {
		return nil, fmt.Errorf("%w: default TTL %v must be between 0 (for %v) and %v", ErrInvalid, o.DefaultTTL, DefaultTTL, MaxTTL)
	}
	if rawURL == "" {
		path, err := defaultPath(o.CacheDir)
		if err != nil {
			return nil, err
		}
		return openSQLite(ctx, path, o)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store URL %s is not a valid URL", Redact(rawURL))
	}
	switch u.Scheme {
	case "sqlite":
		path, err := sqlitePath(u)
		if err != nil {
			return nil, fmt.Errorf("store URL %s: %w", Redact(rawURL), err)
		}
		return openSQLite(ctx, path, o)
	case "redis", "rediss":
		return openRedis(rawURL, o)
	default:
		return nil, fmt.Errorf(`store URL %s: the scheme must be "sqlite", "redis" or "rediss"`, Redact(rawURL))
	}
}

// defaultPath is DefaultFile in dir, or in os.UserCacheDir()/winnow when dir is "".
func defaultPath(dir string) (string, error) {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("default store location: %w (give the store a URL or a cache directory)", err)
		}
		dir = filepath.Join(base, "winnow")
	}
	return filepath.Join(dir, DefaultFile), nil
}

// sqlitePath returns the file a sqlite: URL names.
func sqlitePath(u *url.URL) (string, error) {
	const want = `want sqlite:///absolute/path.db (three slashes)`
	switch {
	case u.Opaque != "" || u.Host != "" || !filepath.IsAbs(u.Path):
		return "", fmt.Errorf("not an absolute file path: %s", want)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", fmt.Errorf("a sqlite URL takes no user, query or fragment: %s", want)
	case strings.HasSuffix(u.Path, "/"):
		return "", fmt.Errorf("names a directory, not a file: %s", want)
	}
	return filepath.Clean(u.Path), nil
}

// Redact returns rawURL with any user information replaced by "xxxxx", for messages and
// logs. Redis takes a lone user name as the password, so the whole of it goes, not only the
// password. A string that does not parse as a URL loses everything from "://" to its last "@".
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err == nil {
		if u.User == nil {
			return rawURL
		}
		u.User = url.User("xxxxx")
		return u.String()
	}
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		scheme, rest = "", rawURL
	} else {
		scheme += "://"
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		return scheme + "xxxxx" + rest[at:]
	}
	return rawURL
}
