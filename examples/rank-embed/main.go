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
package main

import "github.com/rubi-dev/rubi/core/pluginsdk"

func main() {
	r := New()
	r.logger = pluginsdk.Logger("rank.embed")
	pluginsdk.Serve(r)
}
