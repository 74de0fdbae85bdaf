package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// VaultInstructions replace Instructions when the server serves the
// personal vault alone (Options.VaultOnly): there is no code to map, and
// the user talks to an app, not a coding agent. English; Options.Language
// chooses.
var VaultInstructions = messages.English.Get(messages.ToolVaultInstructions)

// vaultExcludes keep the vault's own nodes (and those of rubi's Node.js
// version) out of the walk of the vault: they are found as nodes.
var vaultExcludes = []string{"personal/**", "pessoal/**"}

// vaultProject opens the personal vault as the project of every call
// (Options.VaultOnly), after checking that it is a folder rubi may write
// into; a vault that is not is an error naming its path.
func (s *Server) vaultProject() (*project, error) {
	s.mu.Lock()
	dir := s.vault
	s.mu.Unlock()
	if dir == "" {
		var err error
		if dir, err = s.vaultDir(); err != nil {
			return nil, err
		}
		if err := checkVault(dir); err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.vault = dir
		s.mu.Unlock()
	}
	return s.openProject(dir)
}

// vaultDir is the vault Options.Vault names, else RUBI_VAULT, else the
// vault of the configuration layers (~/rubi-vault by default): an
// absolute path, cleaned.
func (s *Server) vaultDir() (string, error) {
	v, from := s.opts.Vault, "--vault"
	if v == "" {
		if v, from = os.Getenv("RUBI_VAULT"), "RUBI_VAULT"; v == "" {
			cfg, err := config.LoadChecked(config.Options{NoProject: true, Extra: s.opts.Configs})
			if err != nil {
				return "", fmt.Errorf("the configuration that names the vault has errors; fix them and call again:\n%w", err)
			}
			v, from = cfg.Vault, "the vault setting"
		}
	}
	if rest, ok := strings.CutPrefix(v, "~"); ok && (rest == "" || rest[0] == '/' || rest[0] == filepath.Separator) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("the vault %s: %v", v, err)
		}
		v = filepath.Join(home, rest)
	}
	if v == "" {
		return "", errors.New("no vault is configured: choose a folder for rubi's notes (in Claude Desktop: Settings → Extensions → Rubi)")
	}
	if !filepath.IsAbs(v) {
		return "", fmt.Errorf("the vault %q (%s) is not an absolute path: choose a folder for rubi's notes by its full path", v, from)
	}
	return filepath.Clean(v), nil
}

// checkVault refuses a vault that is not a folder rubi may write into, or
// that is the whole file system or the home folder (rubi would index it
// and write .rubi/ there); a missing one is created.
func checkVault(dir string) error {
	if filepath.Dir(dir) == dir {
		return fmt.Errorf("the vault %s is the root of the file system: choose an empty folder used only by rubi, e.g. ~/rubi-vault", dir)
	}
	if home, err := os.UserHomeDir(); err == nil && sameDir(home, dir) {
		return fmt.Errorf("the vault %s is your home folder: choose an empty folder inside it used only by rubi, e.g. %s", dir, filepath.Join(home, "rubi-vault"))
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("the vault %s does not exist and cannot be created (%v): choose a folder you can write to", dir, unwrapPath(err))
		}
	case err != nil:
		return fmt.Errorf("the vault %s cannot be used (%v): choose a folder you can write to", dir, unwrapPath(err))
	case !fi.IsDir():
		return fmt.Errorf("the vault %s is a file, not a folder: choose a folder for rubi's notes", dir)
	}
	probe, err := os.CreateTemp(dir, ".rubi-write-check-*")
	if err != nil {
		return fmt.Errorf("the vault %s is not writable (%v): choose a folder you can write to", dir, unwrapPath(err))
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// sameDir reports whether a and b are the same directory, links resolved.
func sameDir(a, b string) bool {
	if ra, err := filepath.EvalSymlinks(a); err == nil {
		a = ra
	}
	if rb, err := filepath.EvalSymlinks(b); err == nil {
		b = rb
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

// unwrapPath drops the path a *fs.PathError repeats, the message names it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// newEngine opens the engine of the project at cfg.Root. In vault mode
// the root is the vault: the engine's personal vault is that folder, and
// its walk leaves the vault's nodes to the knowledge store.
func (s *Server) newEngine(cfg *config.Config) *pipeline.Engine {
	o := s.opts.Engine
	if !s.opts.VaultOnly {
		o.Logger = s.logger.Named(filepath.Base(cfg.Root))
		return pipeline.New(cfg, o)
	}
	cfg.Index.Exclude = append(append([]string(nil), cfg.Index.Exclude...), vaultExcludes...)
	o.Logger = s.logger.Named("vault")
	eng := pipeline.New(cfg, o)
	eng.Project().SetVault(cfg.Root)
	return eng
}
