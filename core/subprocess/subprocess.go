// Package subprocess starts rubi's subprocess plugins through
// hashicorp/go-plugin and reaches them over gRPC (core/pluginsdk's
// client). A program that runs plugins makes its Launcher in main and
// hands it to the hosts it opens (core/host.Options.Launcher):
//
//	launcher := subprocess.Launcher{}
//	programs.Main(launcher, command(launcher))
//
// The programs that run plugins do (rubi-full, rubi-mcp); the ones agents
// run on every prompt and tool call (rubi, rubi-hook) do not link this
// package, and start about 10 ms sooner for it: go-plugin brings gRPC and
// protobuf, whose packages do real work when a program starts.
//
// Clients speak gRPC only, with AutoMTLS, and are Managed, so Cleanup stops
// whatever is still running; a gRPC status is read into the guard's words
// (crashed, garbage, deadline). A plugin gets a minimal environment
// (env.go: paths, locale, proxies), none of the shell's secrets. Its gRPC
// socket lives in a rubi-plugin-* folder made for it (go-plugin's
// PLUGIN_UNIX_SOCKET_DIR), removed once the plugin stopped, killed or not;
// a plugin whose rubi died removes it on its way out, and SDK plugins exit
// when their parent disappears.
//
// What the boundary costs (go test -bench . ./core/subprocess, on a 2-core
// VM): a Rank call returning 1, 50 or 500 hits takes about 0.3, 8 and 72
// µs in-process and 0.15, 0.3 and 1.1 ms to a subprocess plugin; starting
// a plugin (process, handshake, Info, Configure) about 25 ms. One call per
// query and one per batch of files keeps it cheap.
//
// The subprocess path runs inside go test: the package's test binary
// re-executes itself as the plugin (RUBI_TEST_PLUGIN=mode), covering start
// failure, crash, hang, garbage and parent death, and checks that no
// process is left behind; contract_test.go runs rankertest.Contract
// through this client.
package subprocess

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/pluginsdk"
)

// Launcher starts plugins as go-plugin clients of rubi's plugin protocol.
type Launcher struct{}

// Launch starts the executable at path and dispenses its stage of kind.
// Clients are Managed: Cleanup stops any still running.
//
// Each plugin gets a folder of its own for its gRPC unix socket
// (go-plugin's PLUGIN_UNIX_SOCKET_DIR; by default the socket goes straight
// into the system's temporary folder and stays there when the plugin is
// killed, which is how rubi stops a hung one). rubi removes the folder
// once the plugin has stopped; a plugin whose rubi died removes it itself
// (pluginsdk.SocketDirEnv).
func (Launcher) Launch(_ context.Context, kind core.Kind, path string, startTimeout time.Duration, logger hclog.Logger) (host.Plugin, error) {
	dir, err := os.MkdirTemp("", "rubi-plugin-")
	if err != nil {
		return nil, err
	}
	socketDirs.add(dir)
	cmd := exec.Command(path)
	// A minimal environment (env.go): go-plugin would pass the whole of
	// rubi's, every secret of the user's shell with it.
	cmd.Env = append(pluginEnv(os.Environ()), goplugin.EnvUnixSocketDir+"="+dir, pluginsdk.SocketDirEnv+"="+dir)
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  pluginsdk.Handshake,
		VersionedPlugins: pluginsdk.ClientPlugins(),
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		AutoMTLS:         true,
		Managed:          true,
		SkipHostEnv:      true,
		StartTimeout:     startTimeout,
		Logger:           logger,
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(pluginsdk.MaxMessageSize), grpc.MaxCallSendMsgSize(pluginsdk.MaxMessageSize))},
	})
	p := &plugin{client: client, dir: dir}
	proto, err := client.Client()
	if err != nil {
		p.Stop()
		return nil, err
	}
	raw, err := proto.Dispense(string(kind))
	if err != nil {
		p.Stop()
		return nil, err
	}
	p.remote = raw.(*pluginsdk.Client)
	return p, nil
}

// Cleanup stops every plugin process started by this program and removes
// their socket folders.
func (Launcher) Cleanup() {
	goplugin.CleanupClients()
	socketDirs.removeAll()
}

// socketDirs are the socket folders of the plugins started and not yet
// stopped, for Cleanup.
var socketDirs = &dirSet{dirs: map[string]bool{}}

type dirSet struct {
	mu   sync.Mutex
	dirs map[string]bool
}

func (s *dirSet) add(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirs[dir] = true
}

// remove deletes dir and forgets it.
func (s *dirSet) remove(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = os.RemoveAll(dir)
	delete(s.dirs, dir)
}

func (s *dirSet) removeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for dir := range s.dirs {
		_ = os.RemoveAll(dir)
	}
	clear(s.dirs)
}

// plugin is one go-plugin client and its dispensed stage.
type plugin struct {
	client *goplugin.Client
	remote *pluginsdk.Client
	dir    string // its socket folder
}

func (p *plugin) Remote() core.Stage { return p.remote }

func (p *plugin) Load(ctx context.Context) (core.Info, error) { return p.remote.Load(ctx) }

func (p *plugin) Pid() int {
	if rc := p.client.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}

func (p *plugin) Exited() bool { return p.client.Exited() }

// Stop ends the plugin (go-plugin's Kill waits for the process to exit)
// and removes its socket folder.
func (p *plugin) Stop() {
	p.client.Kill()
	socketDirs.remove(p.dir)
}

// Kill sends SIGKILL before go-plugin's own Kill, whose graceful shutdown
// a hung plugin would not honour.
func (p *plugin) Kill() {
	if pid := p.Pid(); pid > 0 {
		killPID(pid)
	}
	p.Stop()
}

// Explain reads a call's gRPC status: a process that exited crashed, a
// lost connection is a crash too, an Internal status is an answer that
// did not decode.
func (p *plugin) Explain(err error) (string, bool) {
	st := status.Convert(err)
	deadline := st.Code() == codes.DeadlineExceeded
	switch {
	case p.client.Exited():
		return "crashed (the process exited): " + st.Message(), deadline
	case st.Code() == codes.Unavailable:
		return "crashed (connection lost): " + st.Message(), deadline
	case st.Code() == codes.Internal:
		return "answered garbage: " + st.Message(), deadline
	}
	return "failed: " + st.Message(), deadline
}

var _ host.Launcher = Launcher{}
