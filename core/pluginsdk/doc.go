// Package pluginsdk is rubi's plugin protocol, version 1, and the few lines
// a third-party plugin needs to speak it:
//
//	func main() { pluginsdk.Serve(myranker.New()) }
//
// A plugin is an executable that rubi starts as a subprocess through
// hashicorp/go-plugin and talks to over gRPC. The services are written by
// hand (no protoc): their names carry the major protocol version
// ("rubi.plugin.v1.Ranker") and messages are JSON, selected per call with
// the "rubijson" content subtype so go-plugin's own health and broker
// services keep their protobuf codec. docs/plugin-protocol.md is the
// written contract; this package is its reference implementation, used by
// both sides: Serve in plugins, Dispense-time clients in rubi.
package pluginsdk

import (
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/rubi-dev/rubi/core"
)

// ProtocolVersion is the plugin protocol's major version. A change that an
// old plugin or an old rubi could misread bumps it; both sides negotiate
// through go-plugin's VersionedPlugins.
const ProtocolVersion = core.PluginProtocol

// Handshake is shared by rubi and every plugin. The cookie is not a secret:
// it only stops a plugin binary run by hand from waiting on a handshake.
var Handshake = goplugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "RUBI_PLUGIN_COOKIE",
	MagicCookieValue: "7c1f5e0a-rubi-stage-plugin",
}

// MaxMessageSize bounds one gRPC message in either direction. rubi splits
// parse batches and index corpora well below it; the margin covers answers
// (facts) that are larger than their requests.
const MaxMessageSize = 64 << 20

// SourceReadBatch is the most keys one Read call of a source carries.
const SourceReadBatch = 256

// ChunkSize is the target size of one parse batch or index chunk.
const ChunkSize = core.ChunkSize
