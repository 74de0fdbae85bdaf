package host

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core"
)

// fakeLauncher starts no process: its plugin is a fuser in this process
// that keeps the Setup it was configured with.
type fakeLauncher struct {
	launched []string
	setup    *core.Setup
}

func (l *fakeLauncher) Launch(_ context.Context, kind core.Kind, path string, _ time.Duration, _ hclog.Logger) (Plugin, error) {
	l.launched = append(l.launched, path)
	return fakePlugin{setup: l.setup}, nil
}

func (l *fakeLauncher) Cleanup() {}

type fakePlugin struct{ setup *core.Setup }

func (p fakePlugin) Remote() core.Stage { return recordingFuser(p) }
func (p fakePlugin) Load(context.Context) (core.Info, error) {
	return recordingFuser(p).Info(), nil
}
func (fakePlugin) Pid() int                         { return 0 }
func (fakePlugin) Exited() bool                     { return false }
func (fakePlugin) Stop()                            {}
func (fakePlugin) Kill()                            {}
func (fakePlugin) Explain(err error) (string, bool) { return err.Error(), false }

type recordingFuser struct{ setup *core.Setup }

// Info is the built-in fuse.rrf's, whose settings rubi.hcl's defaults
// give.
func (recordingFuser) Info() core.Info {
	b, _ := core.LookupBuiltin("fuse.rrf")
	return b.Factory().Info()
}

func (f recordingFuser) Configure(_ context.Context, s core.Setup) error {
	*f.setup = s
	return nil
}

func (recordingFuser) Fuse(context.Context, []core.RankedList) ([]core.Hit, error) { return nil, nil }

// A host starts plugins with the Launcher its options give, and tells
// every stage whether the process is one-shot (core.Setup.OneShot).
func TestOptionsReachTheStages(t *testing.T) {
	path := executable(t)
	cfg := load(t, "fuser \"fuse.rrf\" {\n  plugin = \""+path+"\"\n}\n")
	for _, oneShot := range []bool{false, true} {
		l := &fakeLauncher{setup: &core.Setup{}}
		h := New(cfg, Options{Launcher: l, OneShot: oneShot})
		_, diags := h.Open(context.Background(), cfg.Stage(core.KindFuser, "fuse.rrf"))
		h.Close()
		if diags.HasErrors() || len(h.Problems()) > 0 {
			t.Fatal(diags, h.Problems())
		}
		if len(l.launched) != 1 || l.launched[0] != path {
			t.Errorf("the launcher started %q, want %s", l.launched, path)
		}
		if o := h.Opened(); len(o) != 1 || !o[0].Subprocess {
			t.Errorf("opened %+v, want the plugin", o)
		}
		if l.setup.OneShot != oneShot || l.setup.Root != cfg.Root {
			t.Errorf("one-shot %v: the stage was configured with %+v", oneShot, *l.setup)
		}
	}
}
