package pipeline

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/subprocess"
)

// The built-in stages also build as plugin binaries. Swapped in through
// rubi.hcl, they must give the same answers over the plugin protocol as
// in-process: parse batches, the streamed corpus and the ranking all cross
// the process boundary.
func TestBuiltinsAsSubprocesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two plugin binaries")
	}
	bin := t.TempDir()
	for _, p := range []string{"rank-bm25/cmd/rubi-rank-bm25", "lang-regex/cmd/rubi-lang-regex"} {
		out, err := exec.Command("go", "build", "-o", bin, "../../plugins/"+p).CombinedOutput()
		if err != nil {
			t.Fatalf("go build %s: %v\n%s", p, err, out)
		}
	}
	layer := filepath.Join(bin, "subprocess.hcl")
	os.WriteFile(layer, []byte(fmt.Sprintf(`
parser "lang.regex" {
  plugin = %q
}
ranker "rank.bm25" {
  plugin = %q
}
`, filepath.Join(bin, "rubi-lang-regex"), filepath.Join(bin, "rubi-rank-bm25"))), 0o644)

	answers := func(extra ...string) ([]string, *Engine) {
		root := shop(t)
		cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", Extra: extra})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		e := New(cfg, Options{Launcher: subprocess.Launcher{}})
		t.Cleanup(e.Close)
		if _, err := e.Index(context.Background(), IndexOptions{}); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, q := range []string{"how is the configuration file loaded", "coupon applied twice", "submitCart"} {
			res, err := e.Retrieve(context.Background(), answer.Query{Text: q})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range res.Items {
				out = append(out, fmt.Sprintf("%s %s %v %.6f", q, it.ID, it.Reasons, it.Score))
			}
		}
		return out, e
	}
	inProcess, _ := answers()
	over, e := answers(layer)
	subprocesses := 0
	for _, o := range e.Opened() {
		if o.Subprocess && o.PID > 0 && o.FellBack == "" {
			subprocesses++
		}
	}
	if subprocesses != 2 || len(e.Problems()) != 0 {
		t.Fatalf("opened = %+v, problems = %q", e.Opened(), e.Problems())
	}
	if !slices.Equal(inProcess, over) {
		t.Errorf("answers differ:\nin-process:\n%q\nsubprocess:\n%q", inProcess, over)
	}
}
