package pluginsdk

import (
	"context"
	"fmt"
	"iter"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rubi-dev/rubi/core"
)

// Client is rubi's side of one plugin connection. It implements
// core.Source, core.Parser, core.Ranker and core.Fuser; only the methods of the kind the
// plugin serves answer. Use Load before anything else: Info is cached.
type Client struct {
	kind core.Kind
	conn *grpc.ClientConn
	info core.Info
}

var callOpts = []grpc.CallOption{
	grpc.CallContentSubtype(CodecName),
	grpc.MaxCallRecvMsgSize(MaxMessageSize),
	grpc.MaxCallSendMsgSize(MaxMessageSize),
}

func (c *Client) invoke(ctx context.Context, method string, req, resp any) error {
	return c.conn.Invoke(ctx, "/"+serviceName(c.kind)+"/"+method, req, resp, callOpts...)
}

// Load fetches the plugin's Info and checks it is the kind rubi asked for.
func (c *Client) Load(ctx context.Context) (core.Info, error) {
	var resp InfoResponse
	if err := c.invoke(ctx, "Info", &Empty{}, &resp); err != nil {
		return core.Info{}, err
	}
	if resp.Protocol != ProtocolVersion {
		return core.Info{}, fmt.Errorf("speaks plugin protocol %d, rubi speaks %d", resp.Protocol, ProtocolVersion)
	}
	if resp.Info.Kind != c.kind {
		return core.Info{}, fmt.Errorf("is a %s plugin, not a %s", resp.Info.Kind, c.kind)
	}
	if err := core.ValidStageName(resp.Info.Name, resp.Info.Kind); err != nil {
		return core.Info{}, err
	}
	c.info = resp.Info
	return c.info, nil
}

// Info returns what Load fetched.
func (c *Client) Info() core.Info { return c.info }

// Configure sends the setup; a rejected setting comes back as a
// *core.SettingError.
func (c *Client) Configure(ctx context.Context, setup core.Setup) error {
	var resp ConfigureResponse
	if err := c.invoke(ctx, "Configure", &ConfigureRequest{Setup: setup}, &resp); err != nil {
		return err
	}
	if resp.Error != nil {
		return resp.Error
	}
	return nil
}

// Scan asks a source for the items it holds.
func (c *Client) Scan(ctx context.Context) ([]core.SourceItem, error) {
	var resp ScanResponse
	if err := c.invoke(ctx, "Scan", &Empty{}, &resp); err != nil {
		return nil, err
	}
	return resp.Items, nil
}

// Read asks a source for the items with these keys, SourceReadBatch at a
// time, so that no answer nears MaxMessageSize with documents of a
// reasonable size.
func (c *Client) Read(ctx context.Context, keys []string) ([]core.SourceDocument, error) {
	var out []core.SourceDocument
	for len(keys) > 0 {
		batch := keys[:min(len(keys), SourceReadBatch)]
		keys = keys[len(batch):]
		var resp ReadResponse
		if err := c.invoke(ctx, "Read", &ReadRequest{Keys: batch}, &resp); err != nil {
			return nil, err
		}
		out = append(out, resp.Documents...)
	}
	return out, nil
}

// Parse sends one batch of files; the caller keeps batches near ChunkSize.
func (c *Client) Parse(ctx context.Context, files []core.SourceFile) ([]core.FileFacts, error) {
	var resp ParseResponse
	if err := c.invoke(ctx, "Parse", &ParseRequest{Files: files}, &resp); err != nil {
		return nil, err
	}
	return resp.Facts, nil
}

// Index streams the corpus in chunks of about ChunkSize, each made as it
// is sent, the bodies its documents defer read into it (core.Corpus.Body),
// and its edges unless the plugin reads none (Info.NoEdges).
func (c *Client) Index(ctx context.Context, corpus *core.Corpus) error {
	stream, err := c.conn.NewStream(ctx, &rankerDesc.Streams[0], "/"+RankerService+"/Index", callOpts...)
	if err != nil {
		return err
	}
	for chunk := range Chunks(corpus, !c.info.NoEdges) {
		if err := stream.SendMsg(chunk); err != nil {
			// The server's status explains a failed send better than io.EOF.
			return recvErr(stream, err)
		}
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	err = stream.RecvMsg(&Empty{})
	if st, ok := status.FromError(err); ok && st.Code() == codes.FailedPrecondition && st.Message() == core.ErrFullIndexNeeded.Error() {
		return core.ErrFullIndexNeeded
	}
	return err
}

func recvErr(stream grpc.ClientStream, sendErr error) error {
	if err := stream.RecvMsg(&Empty{}); err != nil {
		return err
	}
	return sendErr
}

// Rank sends the query.
func (c *Client) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	var resp HitsResponse
	if err := c.invoke(ctx, "Rank", &RankRequest{Query: q}, &resp); err != nil {
		return nil, err
	}
	return resp.Hits, nil
}

// Fuse sends the lists.
func (c *Client) Fuse(ctx context.Context, lists []core.RankedList) ([]core.Hit, error) {
	var resp HitsResponse
	if err := c.invoke(ctx, "Fuse", &FuseRequest{Lists: lists}, &resp); err != nil {
		return nil, err
	}
	return resp.Hits, nil
}

// Chunks splits a corpus into stream messages of about ChunkSize bytes,
// made one at a time as the sequence is read: each document carries its
// body, read then when the corpus defers it (core.Corpus.Body), so that
// a corpus is sent whole while only a chunk's bodies are held. A chunk
// is the caller's once yielded. withEdges sends the corpus's edges after
// its documents: a ranker that reads none (core.Info.NoEdges) is sent none,
// and so need not wait for them (core.Corpus.LinksLater).
func Chunks(corpus *core.Corpus, withEdges bool) iter.Seq[*IndexChunk] {
	return func(yield func(*IndexChunk) bool) {
		cur := &IndexChunk{Full: corpus.Full, Changed: corpus.Changed, Removed: corpus.Removed, Scope: corpus.Scope, TextsOnly: corpus.TextsOnly}
		size := 0
		// add makes room for n bytes: the chunk is yielded first when it
		// holds something and n would take it past ChunkSize.
		add := func(n int) bool {
			if size+n > ChunkSize && size > 0 {
				if !yield(cur) {
					return false
				}
				cur, size = &IndexChunk{}, 0
			}
			size += n
			return true
		}
		for i := range corpus.Documents {
			d := corpus.Documents[i]
			d.Body = corpus.Body(&corpus.Documents[i])
			if !add(len(d.ID) + len(d.Title) + len(d.Path) + len(d.Body) + 16*len(d.Names) + 64) {
				return
			}
			cur.Documents = append(cur.Documents, d)
		}
		if !withEdges {
			yield(cur)
			return
		}
		for e := range corpus.EachEdge() {
			if !add(len(e.From) + len(e.To) + len(e.Kind) + 48) {
				return
			}
			cur.Edges = append(cur.Edges, e)
		}
		yield(cur)
	}
}

var (
	_ core.Parser = (*Client)(nil)
	_ core.Ranker = (*Client)(nil)
	_ core.Fuser  = (*Client)(nil)
)
