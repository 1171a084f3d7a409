package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// Config is the gateway's configuration, read from a JSON file.
type Config struct {
	Listen    string   `json:"listen"`     // address to serve on, default ":8080"
	Upstream  string   `json:"upstream"`   // base URL requests are forwarded to
	CacheSize int      `json:"cache_size"` // entries; 0 means the default
	TTL       Duration `json:"ttl"`        // how long a cached response is served
}

// Duration is a time.Duration that reads from JSON as "90s" or "5m".
type Duration time.Duration

// UnmarshalJSON parses a quoted duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string like \"30s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Defaults for settings the file leaves out.
const (
	defaultListen    = ":8080"
	defaultCacheSize = 1024
	defaultTTL       = Duration(time.Minute)
)

// Load reads the configuration file at path and fills in defaults.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	var cfg Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("parse config %s: %w", path, err)
	}
	cfg.Listen = defaultListen
	if cfg.CacheSize == 0 {
		cfg.CacheSize = defaultCacheSize
	}
	if cfg.TTL == 0 {
		cfg.TTL = defaultTTL
	}
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return &cfg, nil
}

func (c *Config) validate() error {
	if c.Upstream == "" {
		return errors.New("upstream is required")
	}
	if c.CacheSize < 0 {
		return errors.New("cache_size cannot be negative")
	}
	return nil
}
