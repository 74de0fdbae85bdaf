package config

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi"
)

// sameConfig fails unless a and b are the same configuration to every
// reader: what JSON shows, the files diagnostics quote, the trust's files,
// and each stage's attributes (where they are, what they evaluate to) and
// fingerprint.
func sameConfig(t *testing.T, a, b *Config) {
	t.Helper()
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatalf("the configurations differ:\n%s\n%s", ja, jb)
	}
	if !reflect.DeepEqual(a.Trust.configs, b.Trust.configs) || !reflect.DeepEqual(a.safe, b.safe) {
		t.Errorf("trust files %v / %v, safe %v / %v", a.Trust.configs, b.Trust.configs, a.safe, b.safe)
	}
	if len(a.Files) != len(b.Files) {
		t.Fatalf("files %d / %d", len(a.Files), len(b.Files))
	}
	for name, f := range a.Files {
		if g := b.Files[name]; g == nil || !bytes.Equal(f.Bytes, g.Bytes) {
			t.Errorf("file %s differs", name)
		}
	}
	for i, sa := range a.Stages {
		sb := b.Stages[i]
		if sa.DeclRange != sb.DeclRange || !reflect.DeepEqual(sa.PluginRange, sb.PluginRange) || len(sa.Attrs) != len(sb.Attrs) {
			t.Fatalf("%s: ranges or attributes differ", sa.Name)
		}
		for name, x := range sa.Attrs {
			y := sb.Attrs[name]
			if y == nil || x.Name != y.Name || x.Range != y.Range || x.NameRange != y.NameRange || x.Expr.Range() != y.Expr.Range() {
				t.Fatalf("%s.%s: %+v / %+v", sa.Name, name, x, y)
			}
			vx, dx := x.Expr.Value(nil)
			vy, dy := y.Expr.Value(nil)
			if dx.HasErrors() != dy.HasErrors() || !dx.HasErrors() && !vx.RawEquals(vy) {
				t.Errorf("%s.%s evaluates to %#v / %#v", sa.Name, name, vx, vy)
			}
		}
		if a.Fingerprint(sa) != b.Fingerprint(sb) {
			t.Errorf("%s: fingerprints differ", sa.Name)
		}
	}
}

// A hook loads the configuration through the cache: the second load of
// the same files is taken from it, and is the configuration Load makes,
// for rubi's own rubi.hcl, a project's overrides, a user's file and an
// extra one, trusted or not.
func TestACachedConfigurationIsTheLoadedOne(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	user := filepath.Join(t.TempDir(), "user.hcl")
	if err := os.WriteFile(user, []byte("language = \"pt\"\nsafe_directories = [\"/srv/shared\"]\nbudgets {\n  recall = 900\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := filepath.Join(t.TempDir(), "extra.hcl")
	if err := os.WriteFile(extra, []byte("ranker \"rank.bm25\" {\n  k1 = 1.1 # « comment »\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	overrides := []byte("index {\n  exclude = [\n    \"**/gen/**\",\n    \"ñ/**\",\n  ]\n}\nranker \"rank.bm25\" {\n  k1 = 1.4\n  weight = 2\n}\nranker \"rank.ppr\" {\n  enabled = false\n}\nreranker \"rerank.floor\" {\n  type_floors = { note = 0.1, gotcha = 0 }\n}\n")
	for _, c := range []struct {
		name    string
		project []byte
		opts    func(root string) Options
		trusted bool
	}{
		{"rubi's own rubi.hcl", rubi.DefaultConfig, func(root string) Options { return Options{Root: root, UserConfig: "-"} }, false},
		{"overrides, a user's file and an extra one", overrides, func(root string) Options {
			return Options{Root: root, UserConfig: user, Extra: []string{extra}}
		}, false},
		{"no rubi.hcl", nil, func(root string) Options { return Options{Root: root, UserConfig: user} }, false},
		{"trusted", overrides, func(root string) Options { return Options{Root: root, UserConfig: "-"} }, true},
		{"warnings", []byte("retrieve {\n  test_weight = 0.8\n}\n"), func(root string) Options { return Options{Root: root, UserConfig: "-"} }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if c.project != nil {
				if err := os.WriteFile(filepath.Join(root, FileName), c.project, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			opts := c.opts(root)
			opts.TrustFile = filepath.Join(t.TempDir(), "trust.json")
			if c.trusted {
				if _, err := TrustProject(t.Context(), opts); err != nil {
					t.Fatal(err)
				}
			}
			dir := t.TempDir()
			want, diags := Load(opts)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if want.Trusted != c.trusted {
				t.Fatalf("trusted %v", want.Trusted)
			}
			first, err := LoadCached(opts, dir)
			if err != nil {
				t.Fatal(err)
			}
			in, err := cacheInputs(opts)
			if err != nil {
				t.Fatal(err)
			}
			cached, ok := in.take(filepath.Join(dir, in.entryName()))
			if c.name == "warnings" {
				// A load with warnings (the retrieve block's old form) is
				// not kept: the warnings are said each time.
				if len(diags) == 0 || ok {
					t.Fatal("a load with warnings was kept")
				}
				sameConfig(t, want, first)
				return
			}
			if !ok {
				t.Fatal("the load was not kept")
			}
			sameConfig(t, want, first)
			sameConfig(t, want, cached)
			again, err := LoadCached(opts, dir)
			if err != nil {
				t.Fatal(err)
			}
			sameConfig(t, want, again)
		})
	}
}

// An entry stands for the very bytes it was made from: an edit of the
// project's rubi.hcl, of the user's file or of the trust record, another
// working folder, is a load of the files again.
func TestACachedConfigurationFollowsItsFiles(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	write := func(path, src string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	project := filepath.Join(root, FileName)
	write(project, "budgets {\n  context = 3000\n}\n")
	opts := Options{Root: root, UserConfig: filepath.Join(t.TempDir(), "user.hcl"), TrustFile: filepath.Join(t.TempDir(), "trust.json")}
	dir := t.TempDir()
	load := func() *Config {
		t.Helper()
		cfg, err := LoadCached(opts, dir)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	// Loaded, then taken from the cache.
	for range 2 {
		if got := load().Budgets.Context; got != 3000 {
			t.Fatalf("budgets.context %d, want the project's 3000", got)
		}
	}
	write(project, "budgets {\n  context = 4000\n}\n")
	if got := load().Budgets.Context; got != 4000 {
		t.Errorf("after the project's edit: context %d, want 4000", got)
	}
	write(opts.UserConfig, "budgets {\n  recall = 777\n}\n")
	if got := load().Budgets.Recall; got != 777 {
		t.Errorf("after the user's edit: recall %d, want 777", got)
	}
	if _, err := TrustProject(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	if !load().Trusted {
		t.Error("after rubi trust: not trusted")
	}
	write(project, "budgets {\n  context = 5000\n}\n")
	if cfg := load(); cfg.Trusted || cfg.Budgets.Context != 5000 {
		t.Errorf("after an edit the trust did not see: trusted %v, context %d", cfg.Trusted, cfg.Budgets.Context)
	}
	// A plugin is never kept: its trust reads its file each time.
	write(project, "ranker \"rank.x\" {\n  plugin = \"/bin/true\"\n}\n")
	os.RemoveAll(dir)
	load()
	if _, err := os.Stat(dir); err == nil {
		entries, _ := os.ReadDir(dir)
		if len(entries) > 0 {
			t.Error("a configuration with a plugin was kept")
		}
	}
}

// A damaged entry, or one another version wrote, is a load of the files.
func TestADamagedCachedConfigurationIsLoadedAgain(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := projectWith(t, []byte("budgets {\n  context = 3000\n}\n"))
	opts := Options{Root: root, UserConfig: "-", TrustFile: "-"}
	dir := t.TempDir()
	if _, err := LoadCached(opts, dir); err != nil {
		t.Fatal(err)
	}
	in, err := cacheInputs(opts)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, in.entryName())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Damage the hash catches (a byte changed, one added), and an entry
	// hashed again after it was cut short, which only the fields'
	// decoding can tell.
	flipped := slices.Clone(data)
	flipped[len(flipped)/2] ^= 0xff
	grown := append(slices.Clone(data), 'x')
	body := slices.Clone(data[:len(data)-18])
	resealed := binary.LittleEndian.AppendUint64(body, entrySum(body))
	for _, bad := range [][]byte{data[:len(data)/2], []byte("{}"), flipped, grown, resealed} {
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := in.take(path); ok {
			t.Errorf("a damaged entry was taken: %.80s", bad)
		}
		cfg, err := LoadCached(opts, dir)
		if err != nil || cfg.Budgets.Context != 3000 {
			t.Errorf("after a damaged entry: %v, %v", cfg, err)
		}
	}
}

// A command loads through the cache too (LoadThroughCache), and prints
// what Load says each time: a configuration with a warning, or an error,
// is loaded and said again on every run, never taken from the cache; a
// clean one is, the same as loaded.
func TestLoadThroughCacheSaysEveryDiagnostic(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	project := filepath.Join(root, FileName)
	opts := Options{Root: root, UserConfig: "-", TrustFile: filepath.Join(t.TempDir(), "trust.json")}
	dir := t.TempDir()
	for _, c := range []struct {
		src      string
		severity hcl.DiagnosticSeverity // of the one diagnostic; 0 for none
	}{
		{"safe_directories = [\"/\"]\n", hcl.DiagWarning},
		{"budgets {\n  context = \"many\"\n}\n", hcl.DiagError},
		{"budgets {\n  context = 3000\n}\n", 0},
	} {
		if err := os.WriteFile(project, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		want, wantDiags := Load(opts)
		for run := range 2 {
			cfg, diags := LoadThroughCache(opts, dir)
			if len(diags) != len(wantDiags) || c.severity != 0 && (len(diags) != 1 || diags[0].Severity != c.severity) {
				t.Fatalf("%q, run %d: %v, want %v", c.src, run, diags, wantDiags)
			}
			if c.severity == hcl.DiagError {
				continue
			}
			sameConfig(t, cfg, want)
		}
		entries, _ := os.ReadDir(dir)
		if kept := len(entries) > 0; kept != (c.severity == 0) {
			t.Errorf("%q: kept %v", c.src, kept)
		}
	}
}

// An entry kept in this version's format takes the place of the
// project's entry as an older rubi wrote it, which nothing reads now.
func TestAnOlderEntryOfTheProjectIsRemoved(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := projectWith(t, []byte("budgets {\n  context = 3000\n}\n"))
	opts := Options{Root: root, UserConfig: "-", TrustFile: "-"}
	dir := t.TempDir()
	in, err := cacheInputs(opts)
	if err != nil {
		t.Fatal(err)
	}
	name := in.entryName()
	older := filepath.Join(dir, strings.TrimSuffix(name, ".bin")+".json")
	other := filepath.Join(dir, "0123456789abcdef01234567.json")
	for _, p := range []string{older, other} {
		if err := os.WriteFile(p, []byte(`{"key":"x"}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadCached(opts, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		t.Fatalf("no entry kept: %v", err)
	}
	if _, err := os.Stat(older); !os.IsNotExist(err) {
		t.Errorf("the project's older entry is still there (%v)", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another project's entry was removed: %v", err)
	}
}
