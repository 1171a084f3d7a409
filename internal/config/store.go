package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Defaults and bounds of the [store] table.
const (
	DefaultStoreTTL = 30 * 24 * time.Hour
	minStoreTTL     = time.Second
	maxStoreTTL     = 36500 * 24 * time.Hour
)

// Store configures the content-addressed cache of compaction results and telescope nodes
// (internal/store):
//
//	[store]
//	url = "redis://cache.internal:6379/0"   # "" is SQLite in the cache directory
//	ttl = "30d"                             # or any Go duration, such as "720h"
//
// It is a user-only setting ([UserOnly]): [Load] does not read it from a repository's
// .winnow.toml, since a cloned repository must not choose where digests of the user's code
// are sent, or which cache answers for them.
type Store struct {
	// URL is "" (SQLite, store.db in the cache directory), "sqlite:///absolute/path.db", or
	// "redis://[user:password@]host:port/db" ("rediss://" for TLS), shared by every process
	// and machine that names it.
	URL string `toml:"url" json:"url"`
	// TTL is how long an entry stays after it is written; `winnow store gc` removes the
	// entries past it.
	TTL TTL `toml:"ttl" json:"ttl"`
}

func defaultStore() Store { return Store{TTL: TTL(DefaultStoreTTL)} }

// validate reports every invalid value of the [store] table, in the format of
// [Config.Validate]. The URL is shown with its credentials redacted.
func (s Store) validate() []error {
	var errs []error
	if msg := checkStoreURL(s.URL); msg != "" {
		errs = append(errs, fmt.Errorf("store.url = %s: %s", tomlValue(redactURL(s.URL)), msg))
	}
	if d := time.Duration(s.TTL); d < minStoreTTL || d > maxStoreTTL {
		errs = append(errs, fmt.Errorf("store.ttl = %q: must be between %s and %s", s.TTL, TTL(minStoreTTL), TTL(maxStoreTTL)))
	}
	return errs
}

// checkStoreURL returns "" if raw is a store URL, else what is allowed.
func checkStoreURL(raw string) string {
	if raw == "" {
		return ""
	}
	const want = `must be "" (SQLite in the cache directory), "sqlite:///absolute/path.db" or "redis://host:port/db"`
	u, err := url.Parse(raw)
	if err != nil {
		return want
	}
	switch u.Scheme {
	case "sqlite":
		if u.Opaque != "" || u.Host != "" || u.User != nil || !filepath.IsAbs(u.Path) || strings.HasSuffix(u.Path, "/") {
			return `must name an absolute file path, as in "sqlite:///home/me/.cache/winnow/store.db" (three slashes)`
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return "a sqlite URL takes no query or fragment"
		}
	case "redis", "rediss":
		if u.Host == "" {
			return `must name the server, as in "redis://localhost:6379/0"`
		}
		if db := strings.Trim(u.Path, "/"); db != "" {
			if n, err := strconv.Atoi(db); err != nil || n < 0 {
				return "the path must be a database number, as in redis://host:6379/0"
			}
		}
	default:
		return want
	}
	return ""
}

// redactURL replaces the user information of a URL, which Redis may take as the password,
// by "xxxxx"; in a string that does not parse, everything from "://" to the last "@".
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		if u.User == nil {
			return raw
		}
		u.User = url.User("xxxxx")
		return u.String()
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		scheme, rest = "", raw
	} else {
		scheme += "://"
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		return scheme + "xxxxx" + rest[at:]
	}
	return raw
}

// TTL is a time to live, written in TOML and JSON as a whole number of days ("30d") or a Go
// duration ("720h", "90m").
type TTL time.Duration

// Duration returns t as a time.Duration.
func (t TTL) Duration() time.Duration { return time.Duration(t) }

// String formats t as MarshalText does.
func (t TTL) String() string {
	d := time.Duration(t)
	if d > 0 && d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	return d.String()
}

// MarshalText writes whole days as "30d" and anything else as a Go duration.
func (t TTL) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads "30d" (a whole number of days) or a Go duration such as "720h".
func (t *TTL) UnmarshalText(text []byte) error {
	s := string(text)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseInt(days, 10, 64)
		if err != nil || n < 0 || n > int64(maxStoreTTL/(24*time.Hour)) {
			return fmt.Errorf("ttl %q: want a whole number of days such as \"30d\", or a duration such as \"720h\"", s)
		}
		*t = TTL(time.Duration(n) * 24 * time.Hour)
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("ttl %q: want a whole number of days such as \"30d\", or a duration such as \"720h\"", s)
	}
	*t = TTL(d)
	return nil
}
