package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/trust"
)

// newTrustCmd is rubi trust: the user's consent to run what a project's
// configuration names (core/trust). The work is in core/config
// (TrustEntry, Record) and core/trust; this is the command's face.
func newTrustCmd(g *globals) *cobra.Command {
	var list, revoke bool
	cmd := &cobra.Command{
		Use:   "trust [DIR]",
		Short: "Let a project's rubi.hcl run its plugins: record it as it is now",
		Long: `trust shows what a project's configuration would run as you (its
configuration files and the plugin executables it names, with their paths)
and records them, with a hash of each, in trust.json beside your personal
config. Until then rubi runs the project's built-in stages only, and says
what it left out. A change to any of these files needs rubi trust again.
DIR is the project (default: the project around the working directory).`,
		Example: "  rubi trust\n  rubi trust ~/src/shop\n  rubi trust --list\n  rubi trust --revoke ~/src/shop",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if list && revoke {
				return errors.New("--list and --revoke do not go together")
			}
			if list {
				if len(args) > 0 {
					return errors.New("--list takes no DIR")
				}
				return g.trustList()
			}
			if revoke && len(args) == 1 {
				// The folder may be gone: its entry is still forgotten.
				root, err := filepath.Abs(args[0])
				if err != nil {
					return err
				}
				return g.trustRevoke(cmd, root)
			}
			if len(args) == 1 {
				g.Root = args[0]
			}
			root, err := g.projectRoot()
			if err != nil {
				return err
			}
			if revoke {
				return g.trustRevoke(cmd, root)
			}
			cfg, err := g.loadConfig()
			if err != nil {
				return err
			}
			entry, err := cfg.TrustEntry()
			if err != nil {
				return err
			}
			l := g.lang()
			w := g.stdout
			fmt.Fprintln(w, l.Format(messages.TrustHeader, store.EscapeLine(entry.Root)))
			if len(entry.Configs) == 0 {
				fmt.Fprintln(w, l.Get(messages.TrustNoConfig))
			}
			for _, f := range entry.Configs {
				fmt.Fprintln(w, l.Format(messages.TrustConfig, store.EscapeLine(f.Path)))
			}
			if len(cfg.Trust.Plugins) == 0 {
				fmt.Fprintln(w, l.Get(messages.TrustNoPlugins))
			}
			for _, p := range cfg.Trust.Plugins {
				key := messages.TrustPlugin
				if !p.Inside {
					key = messages.TrustPluginOutside
				}
				fmt.Fprintln(w, l.Format(key, p.Kind, p.Name, store.EscapeLine(p.Path)))
			}
			if err := cfg.Record(cmd.Context(), entry); err != nil {
				return err
			}
			fmt.Fprintln(w, l.Format(messages.TrustRecorded, store.EscapeLine(cfg.Trust.Record)))
			return nil
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the trusted projects and the files each trust covers")
	cmd.Flags().BoolVar(&revoke, "revoke", false, "forget the trust of DIR (default: the project around the working directory)")
	return cmd
}

// trustList prints the record: each project, then its files.
func (g *globals) trustList() error {
	rec, err := trust.Read(config.TrustPath())
	if err != nil {
		return err
	}
	if g.JSON {
		return writeJSON(g.stdout, rec.Projects)
	}
	l := g.lang()
	if len(rec.Projects) == 0 {
		fmt.Fprintln(g.stdout, l.Get(messages.TrustListNone))
	}
	for _, p := range rec.Projects {
		fmt.Fprintln(g.stdout, l.Format(messages.TrustListEntry, store.EscapeLine(p.Root), p.TrustedAt.Local().Format("2006-01-02 15:04")))
		for _, f := range p.Configs {
			fmt.Fprintln(g.stdout, l.Format(messages.TrustConfig, store.EscapeLine(f.Path)))
		}
		for _, f := range p.Plugins {
			fmt.Fprintln(g.stdout, l.Format(messages.TrustListPlugin, store.EscapeLine(f.Path)))
		}
	}
	return nil
}

// trustRevoke forgets the project at root.
func (g *globals) trustRevoke(cmd *cobra.Command, root string) error {
	root = trust.Root(root)
	removed := false
	err := trust.Update(cmd.Context(), config.TrustPath(), func(r *trust.Record) error {
		removed = r.Remove(root)
		return nil
	})
	if err != nil {
		return err
	}
	key := messages.TrustRevoked
	if !removed {
		key = messages.TrustNotTrusted
	}
	fmt.Fprintln(g.stdout, g.lang().Format(key, store.EscapeLine(root)))
	return nil
}
