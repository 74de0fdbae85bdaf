package connect

import (
	"slices"
	"testing"
)

// The vault is edited in place: the attribute's value changes, or the
// attribute comes or goes with its comment, and no other byte moves.
func TestSetVault(t *testing.T) {
	const tail = "# The personal vault: notes that follow you across projects (rubi install).\n"
	for _, c := range []struct{ before, vault, want string }{
		{"", "~/notes", tail + "vault = \"~/notes\"\n"},
		{"budgets {\n  context = 2000 # room\n}", "~/n", "budgets {\n  context = 2000 # room\n}\n\n" + tail + "vault = \"~/n\"\n"},
		{"# mine\nvault   = \"~/old\" # where\nindex {}\n", "/srv/v", "# mine\nvault   = \"/srv/v\" # where\nindex {}\n"},
		{"vault = upper(\"x\")\n", "~/v", "vault = \"~/v\"\n"},
		{"", "/v/a \"b\" \\c ${d} %{e} \t", tail + "vault = \"/v/a \\\"b\\\" \\\\c $${d} %%{e} \\t\"\n"},
	} {
		ch, err := setVault(fileState{path: "config.hcl", data: []byte(c.before)}, c.vault)
		if err != nil || string(ch.data) != c.want {
			t.Errorf("%q with vault %q:\ngot  %q %v\nwant %q", c.before, c.vault, ch.data, err, c.want)
			continue
		}
		if got, err := readVault(ch.data); err != nil || got != c.vault {
			t.Errorf("%q reads back as %q, %v", ch.data, got, err)
		}
	}
}

// The undo puts back the backup's value, or takes rubi's attribute out
// with the comment and the blank line install put before it.
func TestUnsetVault(t *testing.T) {
	for _, c := range []struct {
		backup, now, want string
		changes           []string
	}{
		{"budgets {}\n", "budgets {}\n\n# The personal vault: notes that follow you across projects (rubi install).\nvault = \"~/n\"\n", "budgets {}\n", []string{"vault: removed"}},
		{"vault = \"~/a\"\n", "vault = \"~/b\" # changed\n", "vault = \"~/a\" # changed\n", []string{`vault: restored to "~/a"`}},
		{"vault = \"~/a\"\n", "index {}", "index {}\nvault = \"~/a\"\n", []string{`vault: restored to "~/a"`}},
		{"vault = \"~/a\"\n", "vault = \"~/a\"\n", "vault = \"~/a\"\n", nil},
	} {
		ch, err := unsetVault(fileState{path: "config.hcl", data: []byte(c.now), exists: true, backup: []byte(c.backup), hasBackup: true})
		if err != nil || string(ch.data) != c.want || !slices.Equal(ch.changes, c.changes) {
			t.Errorf("%q after %q:\ngot  %q %q %v\nwant %q %q", c.now, c.backup, ch.data, ch.changes, err, c.want, c.changes)
		}
	}
	// A file rubi created holds nothing else: it goes.
	ch, err := unsetVault(fileState{path: "config.hcl", data: []byte("# The personal vault: notes that follow you across projects (rubi install).\nvault = \"~/n\"\n"), exists: true, hasBackup: true})
	if err != nil || !ch.remove {
		t.Errorf("rubi's own file: %+v %v", ch, err)
	}
}

// readVault reads the vault of a configuration file's bytes.
func readVault(data []byte) (string, error) {
	v, _, err := vaultOf(data, "config.hcl")
	return v, err
}
