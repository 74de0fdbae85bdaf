package pluginsdk

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/rubi-dev/rubi/core"
)

// Serve runs stage as a rubi plugin until rubi closes the connection. It
// must be the first thing main does: a plugin may not write to stdout
// before Serve, which owns stdout for the go-plugin handshake (log to
// stderr, for example with Logger). Serve never returns when the process
// was started by rubi; run by hand, it prints a short explanation and exits
// with status 1.
func Serve(stage core.Stage) {
	info := stage.Info()
	if os.Getenv(Handshake.MagicCookieKey) != Handshake.MagicCookieValue {
		fmt.Fprintf(os.Stderr, "%s is a rubi %s plugin: name it in rubi.hcl (plugin = \"path/to/this/binary\") instead of running it directly.\n", info.Name, info.Kind)
		os.Exit(1)
	}
	go exitWithParent(os.Getppid())
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: Handshake,
		VersionedPlugins: map[int]goplugin.PluginSet{
			ProtocolVersion: {string(info.Kind): &grpcPlugin{kind: info.Kind, stage: stage}},
		},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, grpc.MaxRecvMsgSize(MaxMessageSize), grpc.MaxSendMsgSize(MaxMessageSize))
			return grpc.NewServer(opts...)
		},
		Logger: Logger(info.Name),
	})
}

// Logger returns the logger a plugin should use: JSON lines on stderr,
// which rubi reads and re-logs under the plugin's name at the same level.
func Logger(name string) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{
		Name:       name,
		Level:      hclog.Trace,
		Output:     os.Stderr,
		JSONFormat: true,
	})
}

// SocketDirEnv names the folder rubi made for this plugin's unix socket
// (it also passes it to go-plugin as PLUGIN_UNIX_SOCKET_DIR). rubi removes
// it after stopping the plugin; a plugin that outlives its rubi removes it
// on the way out, so a killed rubi leaves no socket behind.
const SocketDirEnv = "RUBI_PLUGIN_SOCKET_DIR"

// exitWithParent ends the plugin when rubi is gone, even if rubi died
// without closing the connection (kill -9): no plugin process may outlive
// the rubi that started it.
func exitWithParent(parent int) {
	for range time.Tick(500 * time.Millisecond) {
		if os.Getppid() != parent {
			if dir := os.Getenv(SocketDirEnv); dir != "" {
				_ = os.RemoveAll(dir)
			}
			os.Exit(2)
		}
	}
}

// grpcPlugin adapts a stage to go-plugin. The same type serves (plugin
// side) and dispenses clients (rubi side).
type grpcPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	kind  core.Kind
	stage core.Stage
}

func (p *grpcPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	return register(s, p.stage)
}

func (p *grpcPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &Client{kind: p.kind, conn: conn}, nil
}

// ClientPlugins is the plugin set rubi dispenses from: one entry per kind.
func ClientPlugins() map[int]goplugin.PluginSet {
	set := goplugin.PluginSet{}
	for _, k := range core.Kinds {
		set[string(k)] = &grpcPlugin{kind: k}
	}
	return map[int]goplugin.PluginSet{ProtocolVersion: set}
}
