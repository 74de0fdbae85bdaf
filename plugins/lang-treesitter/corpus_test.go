package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/subprocess"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// TestCorpusThroughput measures parsing a real corpus, for
// bench/parsers.sh (not a timed unit test: it skips unless
// RUBI_BENCH_CORPUS names a directory). It reads the files rubi would
// index in the languages lang.treesitter handles (256 KiB at most, no
// vendor/ or testdata/), cuts them into batches of about 2 MiB as rubi's
// index does, and parses them with a worker per core three ways: lang.regex
// in-process, lang.treesitter in-process, and lang.treesitter over the
// plugin protocol (the binary named by RUBI_BENCH_PLUGIN). The difference
// between the last two is the RPC's share.
func TestCorpusThroughput(t *testing.T) {
	dir := os.Getenv("RUBI_BENCH_CORPUS")
	if dir == "" {
		t.Skip("RUBI_BENCH_CORPUS not set")
	}
	var files []core.SourceFile
	var total int
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case "vendor", "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		lang := core.DetectLanguage(p)
		if languages[lang] == nil {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 256<<10 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, core.SourceFile{Path: filepath.ToSlash(rel), Language: lang, Content: b})
		total += len(b)
		return nil
	})
	var batches [][]core.SourceFile
	for i := 0; i < len(files); {
		j, size := i, 0
		for j < len(files) && (j == i || size+len(files[j].Content) <= 2<<20) {
			size += len(files[j].Content)
			j++
		}
		batches = append(batches, files[i:j])
		i = j
	}
	t.Logf("corpus %s: %d files, %.1f MB, %d batches, %d workers", dir, len(files), float64(total)/1e6, len(batches), runtime.GOMAXPROCS(0))

	run := func(name string, p core.Parser) []core.FileFacts {
		out := make([]core.FileFacts, len(files))
		start := time.Now()
		var wg sync.WaitGroup
		next := make(chan int)
		offsets := make([]int, len(batches))
		for i, off := 0, 0; i < len(batches); i++ {
			offsets[i] = off
			off += len(batches[i])
		}
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for b := range next {
					facts, err := p.Parse(context.Background(), batches[b])
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					copy(out[offsets[b]:], facts)
				}
			}()
		}
		for b := range batches {
			next <- b
		}
		close(next)
		wg.Wait()
		secs := time.Since(start).Seconds()
		t.Logf("%-28s %6.2f s  %6.2f MB/s", name, secs, float64(total)/1e6/secs)
		return out
	}
	re := run("lang.regex in-process", regex.New())
	ts := run("lang.treesitter in-process", New())
	// open starts the plugin binary bin serving the parser called name,
	// the way rubi does.
	open := func(name, bin string) (core.Parser, *host.Host) {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, "rubi.hcl"), []byte(fmt.Sprintf("parser %q {\n  plugin = %q\n  timeout = \"120s\"\n}\n", name, bin)), 0o644)
		opts := config.Options{Root: root, UserConfig: "-", TrustFile: root + ".trust.json"}
		if _, err := config.TrustProject(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		cfg, diags := config.Load(opts)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		h := host.New(cfg, host.Options{Launcher: subprocess.Launcher{}})
		t.Cleanup(h.Close)
		st, diags := h.Open(context.Background(), cfg.Stage(core.KindParser, name))
		if diags.HasErrors() || len(h.Problems()) > 0 {
			t.Fatal(diags, h.Problems())
		}
		return st.(core.Parser), h
	}
	// The regex parser is fast enough for the protocol's own cost (JSON,
	// base64, the copies, a round trip per batch) to show: over RPC minus
	// in-process is that cost for this corpus.
	if bin := os.Getenv("RUBI_BENCH_REGEX_PLUGIN"); bin != "" {
		p, _ := open(regex.Name, bin)
		run("lang.regex over RPC", p)
	}
	if bin := os.Getenv("RUBI_BENCH_PLUGIN"); bin != "" {
		p, h := open(Name, bin)
		rpc := run("lang.treesitter over RPC", p)
		same := 0
		for i := range rpc {
			if len(rpc[i].Symbols) == len(ts[i].Symbols) && len(rpc[i].Imports) == len(ts[i].Imports) && rpc[i].Error == "" {
				same++
			} else if same+10 > i {
				t.Logf("%s: rpc %d symbols %d imports %q; in-process %d, %d", files[i].Path, len(rpc[i].Symbols), len(rpc[i].Imports), rpc[i].Error, len(ts[i].Symbols), len(ts[i].Imports))
			}
		}
		t.Logf("over RPC: %d of %d files with the same facts as in-process", same, len(rpc))
		if p := h.Problems(); len(p) > 0 {
			t.Errorf("plugin problems: %q", p)
		}
	}

	// A few files where the parsers disagree on imports, to read.
	shown := 0
	for i := range files {
		if len(re[i].Imports) != len(ts[i].Imports) && shown < 10 {
			shown++
			t.Logf("imports differ in %s: regex %v, tree-sitter %v", files[i].Path, specs(re[i].Imports), specs(ts[i].Imports))
		}
		if a, b := names(re[i].Symbols), names(ts[i].Symbols); len(a) != len(b) && shown < 10 {
			shown++
			t.Logf("symbols differ in %s: regex only %v, tree-sitter only %v", files[i].Path, minus(a, b), minus(b, a))
		}
	}
	type count struct{ files, symbols, imports, errors int }
	per := map[string]*[2]count{}
	for k, facts := range [][]core.FileFacts{re, ts} {
		for _, f := range facts {
			c := per[f.Language]
			if c == nil {
				c = &[2]count{}
				per[f.Language] = c
			}
			c[k].files++
			c[k].symbols += len(f.Symbols)
			c[k].imports += len(f.Imports)
			if f.Error != "" {
				c[k].errors++
			}
		}
	}
	langs := make([]string, 0, len(per))
	for l := range per {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	var b strings.Builder
	b.WriteString("| Language | Files | Symbols (regex) | Symbols (tree-sitter) | Imports (regex) | Imports (tree-sitter) |\n|---|---:|---:|---:|---:|---:|\n")
	for _, l := range langs {
		c := per[l]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", l, c[0].files, c[0].symbols, c[1].symbols, c[0].imports, c[1].imports)
	}
	t.Logf("facts:\n%s", b.String())
}

func specs(imps []core.Import) []string {
	var out []string
	for _, im := range imps {
		out = append(out, fmt.Sprintf("%d:%s", im.Line, im.Spec))
	}
	return out
}

func names(syms []core.Symbol) []string {
	var out []string
	for _, s := range syms {
		out = append(out, fmt.Sprintf("%d:%s", s.Line, s.Name))
	}
	return out
}

// minus is what a holds that b does not.
func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}
