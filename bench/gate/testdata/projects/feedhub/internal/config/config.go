// Package config reads feedhub.yaml.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Feed is one subscription.
type Feed struct {
	URL      string        `yaml:"url"`
	Interval time.Duration `yaml:"interval"`
}

// Config is the whole file.
type Config struct {
	Listen            string        `yaml:"listen"`
	DataDir           string        `yaml:"data_dir"`
	DefaultInterval   time.Duration `yaml:"default_interval"`
	MinInterval       time.Duration `yaml:"min_interval"`
	UserAgent         string        `yaml:"user_agent"`
	MaxEntriesPerFeed int           `yaml:"max_entries_per_feed"`
	Feeds             []Feed        `yaml:"feeds"`
}

// Load reads the file at path, fills in defaults and checks the values.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg := &Config{Listen: "127.0.0.1:7070", DefaultInterval: 30 * time.Minute, MinInterval: 5 * time.Minute, MaxEntriesPerFeed: 500}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if strings.HasPrefix(cfg.DataDir, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, err
		}
		cfg.DataDir = filepath.Join(home, cfg.DataDir[2:])
	}
	for i, f := range cfg.Feeds {
		if f.Interval != 0 && f.Interval < cfg.MinInterval {
			return nil, fmt.Errorf("%s: feed %d (%s): interval %s is below min_interval %s", path, i+1, f.URL, f.Interval, cfg.MinInterval)
		}
	}
	return cfg, nil
}
