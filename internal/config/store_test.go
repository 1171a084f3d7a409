package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestStoreValidate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(s *Store)
		want   string // "" means valid
	}{
		{"defaults", func(s *Store) {}, ""},
		{"sqlite file", func(s *Store) { s.URL = "sqlite:///var/cache/winnow/store.db" }, ""},
		{"redis", func(s *Store) { s.URL = "redis://localhost:6379/0" }, ""},
		{"redis without db", func(s *Store) { s.URL = "redis://localhost:6379" }, ""},
		{"rediss with password", func(s *Store) { s.URL = "rediss://:pw@cache.internal:6380/3" }, ""},
		{"ttl bounds", func(s *Store) { s.TTL = TTL(time.Second) }, ""},
		{"relative sqlite", func(s *Store) { s.URL = "sqlite://store.db" },
			`store.url = "sqlite://store.db": must name an absolute file path, as in "sqlite:///home/me/.cache/winnow/store.db" (three slashes)`},
		{"sqlite with query", func(s *Store) { s.URL = "sqlite:///tmp/s.db?mode=ro" },
			`store.url = "sqlite:///tmp/s.db?mode=ro": a sqlite URL takes no query or fragment`},
		{"unknown scheme", func(s *Store) { s.URL = "memcached://localhost" },
			`store.url = "memcached://localhost": must be "" (SQLite in the cache directory), "sqlite:///absolute/path.db" or "redis://host:port/db"`},
		{"a path, not a URL", func(s *Store) { s.URL = "/tmp/store.db" },
			`store.url = "/tmp/store.db": must be "" (SQLite in the cache directory), "sqlite:///absolute/path.db" or "redis://host:port/db"`},
		{"redis without host, password redacted", func(s *Store) { s.URL = "redis://:hunter2@/0" },
			`store.url = "redis://xxxxx@/0": must name the server, as in "redis://localhost:6379/0"`},
		{"redis bad db, password redacted", func(s *Store) { s.URL = "redis://hunter2@host:6379/x" },
			`store.url = "redis://xxxxx@host:6379/x": the path must be a database number, as in redis://host:6379/0`},
		{"unparseable, password redacted", func(s *Store) { s.URL = "redis://:hunter2@host:port/0" },
			`store.url = "redis://xxxxx@host:port/0": must be "" (SQLite in the cache directory), "sqlite:///absolute/path.db" or "redis://host:port/db"`},
		{"zero ttl", func(s *Store) { s.TTL = 0 },
			`store.ttl = "0s": must be between 1s and 36500d`},
		{"negative ttl", func(s *Store) { s.TTL = TTL(-time.Hour) },
			`store.ttl = "-1h0m0s": must be between 1s and 36500d`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.modify(&c.Store)
			got := ""
			if err := c.Validate(); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Validate() error mismatch (-want +got):\n%s", diff)
			}
			if strings.Contains(got, "hunter2") {
				t.Errorf("the error shows the password: %s", got)
			}
		})
	}
}

func TestStoreParse(t *testing.T) {
	tests := []struct {
		doc     string
		want    Store
		wantErr string
	}{
		{"", Store{TTL: TTL(30 * 24 * time.Hour)}, ""},
		{"[store]\nurl = \"redis://localhost:6379/1\"\nttl = \"7d\"\n", Store{URL: "redis://localhost:6379/1", TTL: TTL(7 * 24 * time.Hour)}, ""},
		{"[store]\nttl = \"36h\"\n", Store{TTL: TTL(36 * time.Hour)}, ""},
		{"[store]\nttl = \"90m\"\n", Store{TTL: TTL(90 * time.Minute)}, ""},
		{"[store]\nttl = \"30 days\"\n", Store{}, `line 2`},
		{"[store]\nttl = \"1.5d\"\n", Store{}, `want a whole number of days`},
		{"[store]\nttl = 30\n", Store{}, `line 2`},
	}
	for _, tt := range tests {
		c := Default()
		_, err := Parse(strings.NewReader(tt.doc), "config.toml", c)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse(%q): %v, want an error mentioning %q", tt.doc, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.doc, err)
			continue
		}
		if diff := cmp.Diff(tt.want, c.Store); diff != "" {
			t.Errorf("Parse(%q) mismatch (-want +got):\n%s", tt.doc, diff)
		}
	}
}

func TestTTLText(t *testing.T) {
	for _, tt := range []struct {
		ttl  TTL
		text string
	}{
		{TTL(30 * 24 * time.Hour), "30d"},
		{TTL(36 * time.Hour), "36h0m0s"},
		{TTL(90 * time.Second), "1m30s"},
		{0, "0s"},
	} {
		b, err := tt.ttl.MarshalText()
		if err != nil || string(b) != tt.text {
			t.Errorf("MarshalText(%v) = %q, %v; want %q", time.Duration(tt.ttl), b, err, tt.text)
		}
		var back TTL
		if err := back.UnmarshalText(b); err != nil || back != tt.ttl {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", b, time.Duration(back), err, time.Duration(tt.ttl))
		}
	}
}

func TestStoreWriteTOMLRoundTrip(t *testing.T) {
	for _, s := range []Store{
		{URL: "rediss://:pw@cache.internal:6380/3", TTL: TTL(36 * time.Hour)},
		{URL: "sqlite:///var/cache/winnow/store.db", TTL: TTL(7 * 24 * time.Hour)},
	} {
		c := Default()
		c.Store = s
		var b strings.Builder
		if err := c.WriteTOML(&b); err != nil {
			t.Fatal(err)
		}
		got := &Config{}
		if warns, err := Parse(strings.NewReader(b.String()), "written.toml", got); err != nil || len(warns) != 0 {
			t.Fatalf("Parse(WriteTOML output): %v %v\n%s", err, warns, b.String())
		}
		if diff := cmp.Diff(s, got.Store); diff != "" {
			t.Errorf("round trip mismatch (-want +got):\n%s", diff)
		}
	}
}
