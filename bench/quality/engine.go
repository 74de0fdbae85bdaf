package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/subprocess"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	"github.com/rubi-dev/rubi/plugins/standard"
)

// harness opens rubi engines the way the CLI does, with two differences
// that keep a run reproducible: the personal config layer and the
// personal vault are left out.
type harness struct {
	// extra are config files layered over the project's (-config).
	extra []string
	// indexExtra are layers only the engines that index add (engine):
	// rank.embed's block with -embed-endpoint, so that the index holds
	// its vectors while the ablation's variants leave it out.
	indexExtra []string
	logger     hclog.Logger
	// work holds the layers of the ablation's variants (layer).
	work   string
	mu     sync.Mutex
	layers map[string]string
}

// config loads the configuration of the project at root, with only the
// rankers in keep enabled (all configured ones when keep is nil).
func (h *harness) config(root string, keep []string, layers ...string) (*config.Config, error) {
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", Extra: append(slices.Clone(h.extra), layers...)})
	if diags.HasErrors() {
		var b bytes.Buffer
		config.WriteDiagnostics(&b, nil, diags)
		return nil, fmt.Errorf("configuration of %s:\n%s", root, b.String())
	}
	cfg.Vault = ""
	if keep != nil {
		restrict(cfg, keep)
	}
	return cfg, nil
}

// engineOptions are the options of the harness's engines: its logger,
// core/subprocess's Launcher for the plugins a system names
// (rank.embed, examples/rank-embed), and the regex parser's comment
// masker, as rubi's programs hand them.
func (h *harness) engineOptions() pipeline.Options {
	return pipeline.Options{Logger: h.logger, Launcher: subprocess.Launcher{}, MaskComments: regex.MaskComments, Resolvers: standard.Resolvers()}
}

// variantEngine returns an engine for the project at root as variant v
// configures it: its rankers, and its rubi.hcl layer (written once into
// the harness's work directory).
func (h *harness) variantEngine(root string, v variant) (*pipeline.Engine, error) {
	var extra []string
	if v.Config != "" {
		f, err := h.layer(v.Config)
		if err != nil {
			return nil, err
		}
		extra = append(extra, f)
	}
	cfg, err := h.config(root, v.Rankers, extra...)
	if err != nil {
		return nil, err
	}
	return pipeline.New(cfg, h.engineOptions()), nil
}

// layer writes a rubi.hcl layer into the work directory, once per text,
// and returns its path.
func (h *harness) layer(text string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if p, ok := h.layers[text]; ok {
		return p, nil
	}
	f, err := os.CreateTemp(h.work, "layer-*.hcl")
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	if h.layers == nil {
		h.layers = map[string]string{}
	}
	h.layers[text] = f.Name()
	return f.Name(), nil
}

// engine returns an engine for the project at root running only the
// rankers in keep (all when nil), with the extra rubi.hcl layers.
func (h *harness) engine(root string, keep []string, layers ...string) (*pipeline.Engine, error) {
	cfg, err := h.config(root, keep, append(slices.Clone(h.indexExtra), layers...)...)
	if err != nil {
		return nil, err
	}
	return pipeline.New(cfg, h.engineOptions()), nil
}

// timedQueries runs every query through eng and returns, for each, the
// ranked keys (what key makes of each item, empty keys dropped), the
// duration of each call, and the duration of the first call, which pays
// for opening the stages and loading their state. The first query is run
// once more among the others so every duration counted is a warm one.
func timedQueries(ctx context.Context, eng *pipeline.Engine, texts []string, q answer.Query, key func(answer.Item) string) (ranked [][]string, lat latencies, first time.Duration, err error) {
	run := func(text string) ([]string, time.Duration, error) {
		q := q
		q.Text = text
		start := time.Now()
		res, err := eng.Retrieve(ctx, q)
		d := time.Since(start)
		if err != nil {
			return nil, d, fmt.Errorf("query %q: %w", text, err)
		}
		var out []string
		for _, it := range res.Items {
			if k := key(it); k != "" {
				out = append(out, k)
			}
		}
		return out, d, nil
	}
	if len(texts) == 0 {
		return nil, nil, 0, nil
	}
	if _, first, err = run(texts[0]); err != nil {
		return nil, nil, 0, err
	}
	for _, t := range texts {
		r, d, err := run(t)
		if err != nil {
			return nil, nil, 0, err
		}
		ranked = append(ranked, r)
		lat = append(lat, d)
	}
	return ranked, lat, first, nil
}

// downloadModule fetches MODULE@VERSION through the Go module proxy (as
// `go mod download` does, into the module cache) and returns its
// directory, which is read-only.
func downloadModule(ctx context.Context, work, module string) (string, error) {
	dir, err := os.MkdirTemp(work, "download-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module quality.download\n"), 0o644); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", module)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		msg := strings.TrimSpace(info.Error + " " + stderr.String())
		if runErr != nil && msg == "" {
			msg = runErr.Error()
		}
		return "", fmt.Errorf("go mod download %s: %s", module, msg)
	}
	return info.Dir, nil
}

// gitCommit is the short commit of the repository at root, "" when it
// cannot be read.
func gitCommit(root string) string {
	out, err := exec.Command("git", "-C", root, "describe", "--always", "--dirty").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
