// Command rubi-rank-embed is an example third-party rubi ranker,
// "rank.embed": semantic search with the embeddings of a local
// OpenAI-compatible endpoint (Ollama, llama.cpp's llama-server, LM
// Studio). Documents are embedded when rubi indexes, only those whose
// text changed; a question is embedded when asked and compared with every
// document by cosine. The vectors live in .rubi/index/rank.embed/. With
// no endpoint running, the first call says so and rubi answers with its
// other rankers. Build it and name it in rubi.hcl (see README.md):
//
//	go build -o bin/rubi-rank-embed ./examples/rank-embed
//
//	ranker "rank.embed" {
//	  plugin = "bin/rubi-rank-embed"
//	  model  = "nomic-embed-text"
//	}
//
// The endpoint must be on loopback unless allow_remote is set: rubi sends
// a project's text nowhere by default. Vectors are kept as int8 with a
// hash of each document's text beside them, so an index embeds only what
// changed.
//
// It shows how the plugin boundary degrades when a plugin needs a service
// of its own. With the endpoint down, Index or Rank returns an error
// naming it; rubi's guard logs that one line and stops the plugin, and
// the question is answered by the other rankers (a ranker has no built-in
// to fall back on). A failed Index leaves the ranker's fingerprint out of
// the manifest, so the next index hands it a full corpus, and the text
// hashes keep that from embedding again what it already has. The plugin
// protocol has no stats call, so its coverage (documents with a vector,
// of those of its kinds) travels in its hits' reasons and an info log
// line.
//
// Its tests run it as a subprocess against embedtest, a loopback fake of
// the endpoint, and check that with the endpoint gone a question is
// answered by the other rankers with one problem line.
package main

import "github.com/rubi-dev/rubi/core/pluginsdk"

func main() {
	r := New()
	r.logger = pluginsdk.Logger("rank.embed")
	pluginsdk.Serve(r)
}
