// Package standard links rubi's built-in stages into a binary: importing
// it registers lang.regex, lang.go, rank.bm25, rank.names, rank.ppr, the rankers
// of the engine's facts (query.paths, notes.files, query.time), fuse.rrf
// and the rerankers (rerank.roles, rerank.notes, rerank.units,
// rerank.floor), each under its namespaced name; Resolvers are the
// resolvers of references every program hands its engines. internal/cli imports it;
// so does any program that embeds the engine and wants the default
// pipeline.
package standard

import (
	_ "github.com/rubi-dev/rubi/plugins/fuse-rrf"
	_ "github.com/rubi-dev/rubi/plugins/lang-go"
	_ "github.com/rubi-dev/rubi/plugins/lang-regex"
	_ "github.com/rubi-dev/rubi/plugins/rank-bm25"
	_ "github.com/rubi-dev/rubi/plugins/rank-facts"
	_ "github.com/rubi-dev/rubi/plugins/rank-names"
	_ "github.com/rubi-dev/rubi/plugins/rank-neighbours"
	_ "github.com/rubi-dev/rubi/plugins/rank-ppr"
	_ "github.com/rubi-dev/rubi/plugins/rerank"
)
