package pluginsdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rubi-dev/rubi/core"
)

// Service names of protocol v1.
const (
	SourceService = "rubi.plugin.v1.Source"
	ParserService = "rubi.plugin.v1.Parser"
	RankerService = "rubi.plugin.v1.Ranker"
	FuserService  = "rubi.plugin.v1.Fuser"
)

// serviceName maps a stage kind to its gRPC service.
func serviceName(kind core.Kind) string {
	switch kind {
	case core.KindSource:
		return SourceService
	case core.KindParser:
		return ParserService
	case core.KindRanker:
		return RankerService
	case core.KindFuser:
		return FuserService
	}
	return ""
}

// unary builds a method whose handler decodes Req, calls fn on the served
// stage and turns a panic in plugin code into an error, so one bad input
// does not kill a plugin that serves many calls.
func unary[S any, Req any, Resp any](name string, fn func(ctx context.Context, s S, req *Req) (*Resp, error)) grpc.MethodDesc {
	return grpc.MethodDesc{
		MethodName: name,
		Handler: func(srv any, ctx context.Context, dec func(any) error, ic grpc.UnaryServerInterceptor) (any, error) {
			req := new(Req)
			if err := dec(req); err != nil {
				return nil, err
			}
			call := func(ctx context.Context, r any) (resp any, err error) {
				defer recoverCall(name, &err)
				return fn(ctx, srv.(S), r.(*Req))
			}
			if ic == nil {
				return call(ctx, req)
			}
			return ic(ctx, req, &grpc.UnaryServerInfo{Server: srv, FullMethod: name}, call)
		},
	}
}

func recoverCall(name string, err *error) {
	if r := recover(); r != nil {
		*err = status.Errorf(codes.Internal, "%s panicked: %v\n%s", name, r, debug.Stack())
	}
}

// stageMethods are the methods every service has.
func stageMethods[S core.Stage]() []grpc.MethodDesc {
	return []grpc.MethodDesc{
		unary("Info", func(_ context.Context, s S, _ *Empty) (*InfoResponse, error) {
			return &InfoResponse{Info: s.Info(), Protocol: ProtocolVersion}, nil
		}),
		unary("Configure", func(ctx context.Context, s S, req *ConfigureRequest) (*ConfigureResponse, error) {
			err := s.Configure(ctx, req.Setup)
			var se *core.SettingError
			if errors.As(err, &se) {
				return &ConfigureResponse{Error: se}, nil
			}
			if err != nil {
				return nil, err
			}
			return &ConfigureResponse{}, nil
		}),
	}
}

var sourceDesc = grpc.ServiceDesc{
	ServiceName: SourceService,
	HandlerType: (*core.Source)(nil),
	Methods: append(stageMethods[core.Source](),
		unary("Scan", func(ctx context.Context, s core.Source, _ *Empty) (*ScanResponse, error) {
			items, err := s.Scan(ctx)
			if err != nil {
				return nil, err
			}
			return &ScanResponse{Items: items}, nil
		}),
		unary("Read", func(ctx context.Context, s core.Source, req *ReadRequest) (*ReadResponse, error) {
			docs, err := s.Read(ctx, req.Keys)
			if err != nil {
				return nil, err
			}
			return &ReadResponse{Documents: docs}, nil
		}),
	),
}

var parserDesc = grpc.ServiceDesc{
	ServiceName: ParserService,
	HandlerType: (*core.Parser)(nil),
	Methods: append(stageMethods[core.Parser](),
		unary("Parse", func(ctx context.Context, p core.Parser, req *ParseRequest) (*ParseResponse, error) {
			facts, err := p.Parse(ctx, req.Files)
			if err != nil {
				return nil, err
			}
			return &ParseResponse{Facts: facts}, nil
		}),
	),
}

var rankerDesc = grpc.ServiceDesc{
	ServiceName: RankerService,
	HandlerType: (*core.Ranker)(nil),
	Methods: append(stageMethods[core.Ranker](),
		unary("Rank", func(ctx context.Context, r core.Ranker, req *RankRequest) (*HitsResponse, error) {
			hits, err := r.Rank(ctx, req.Query)
			if err != nil {
				return nil, err
			}
			return &HitsResponse{Hits: hits}, nil
		}),
	),
	Streams: []grpc.StreamDesc{{
		StreamName:    "Index",
		ClientStreams: true,
		Handler: func(srv any, stream grpc.ServerStream) (err error) {
			defer recoverCall("Index", &err)
			corpus := &core.Corpus{}
			for first := true; ; first = false {
				var chunk IndexChunk
				err := stream.RecvMsg(&chunk)
				if err == io.EOF {
					break
				}
				if err != nil {
					return err
				}
				if first {
					corpus.Full, corpus.Changed, corpus.Removed, corpus.Scope, corpus.TextsOnly = chunk.Full, chunk.Changed, chunk.Removed, chunk.Scope, chunk.TextsOnly
				}
				corpus.Documents = append(corpus.Documents, chunk.Documents...)
				corpus.Edges = append(corpus.Edges, chunk.Edges...)
			}
			if err := srv.(core.Ranker).Index(stream.Context(), corpus); err != nil {
				if errors.Is(err, core.ErrFullIndexNeeded) {
					return status.Error(codes.FailedPrecondition, core.ErrFullIndexNeeded.Error())
				}
				return err
			}
			return stream.SendMsg(&Empty{})
		},
	}},
}

var fuserDesc = grpc.ServiceDesc{
	ServiceName: FuserService,
	HandlerType: (*core.Fuser)(nil),
	Methods: append(stageMethods[core.Fuser](),
		unary("Fuse", func(ctx context.Context, f core.Fuser, req *FuseRequest) (*HitsResponse, error) {
			hits, err := f.Fuse(ctx, req.Lists)
			if err != nil {
				return nil, err
			}
			return &HitsResponse{Hits: hits}, nil
		}),
	),
}

// register adds the service of stage's kind to s.
func register(s *grpc.Server, stage core.Stage) error {
	switch st := stage.(type) {
	case core.Source:
		s.RegisterService(&sourceDesc, st)
	case core.Parser:
		s.RegisterService(&parserDesc, st)
	case core.Ranker:
		s.RegisterService(&rankerDesc, st)
	case core.Fuser:
		s.RegisterService(&fuserDesc, st)
	default:
		return fmt.Errorf("%T is not a core.Source, core.Parser, core.Ranker or core.Fuser", stage)
	}
	return nil
}
