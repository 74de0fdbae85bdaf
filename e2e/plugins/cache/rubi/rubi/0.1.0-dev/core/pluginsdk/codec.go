package pluginsdk

import (
	"encoding/json"

	"google.golang.org/grpc/encoding"
)

// CodecName is the gRPC content subtype of every rubi call.
const CodecName = "rubijson"

// jsonCodec marshals rubi's messages, which are plain Go structs, as JSON.
// It is registered globally under its own name and chosen per call, so
// gRPC's default protobuf codec stays in place for go-plugin's services.
type jsonCodec struct{}

func (jsonCodec) Marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func (jsonCodec) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
func (jsonCodec) Name() string                       { return CodecName }

func init() {
	encoding.RegisterCodec(jsonCodec{})
}

// Codec returns rubi's gRPC codec (for tests that need to wrap it).
func Codec() encoding.Codec { return jsonCodec{} }
