// Package subprocess starts rubi's subprocess plugins through
// hashicorp/go-plugin and reaches them over gRPC (core/pluginsdk's
// client). Importing it installs its Launcher in core/host:
//
//	import _ "github.com/rubi-dev/rubi/core/subprocess"
//
// The programs that run plugins import it (rubi-full, rubi-mcp); the ones
// agents run on every prompt and tool call (rubi, rubi-hook) do not, and
// start about 10 ms sooner for it: go-plugin brings gRPC and protobuf,
// whose packages do real work when a program starts.
package subprocess

import (
	"context"
	"os/exec"
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

func init() { host.SetLauncher(Launcher{}) }

// Launcher starts plugins as go-plugin clients of rubi's plugin protocol.
type Launcher struct{}

// Launch starts the executable at path and dispenses its stage of kind.
// Clients are Managed: Cleanup stops any still running.
func (Launcher) Launch(_ context.Context, kind core.Kind, path string, startTimeout time.Duration, logger hclog.Logger) (host.Plugin, error) {
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  pluginsdk.Handshake,
		VersionedPlugins: pluginsdk.ClientPlugins(),
		Cmd:              exec.Command(path),
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		AutoMTLS:         true,
		Managed:          true,
		StartTimeout:     startTimeout,
		Logger:           logger,
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(pluginsdk.MaxMessageSize), grpc.MaxCallSendMsgSize(pluginsdk.MaxMessageSize))},
	})
	proto, err := client.Client()
	if err != nil {
		client.Kill()
		return nil, err
	}
	raw, err := proto.Dispense(string(kind))
	if err != nil {
		client.Kill()
		return nil, err
	}
	return &plugin{client: client, remote: raw.(*pluginsdk.Client)}, nil
}

// Cleanup stops every plugin process started by this program.
func (Launcher) Cleanup() { goplugin.CleanupClients() }

// plugin is one go-plugin client and its dispensed stage.
type plugin struct {
	client *goplugin.Client
	remote *pluginsdk.Client
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

func (p *plugin) Stop() { p.client.Kill() }

// Kill sends SIGKILL before go-plugin's own Kill, whose graceful shutdown
// a hung plugin would not honour.
func (p *plugin) Kill() {
	if pid := p.Pid(); pid > 0 {
		killPID(pid)
	}
	p.client.Kill()
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
