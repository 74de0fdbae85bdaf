// Package core holds rubi's engine contracts: the five kinds of pipeline
// stage (Source, Parser, Ranker, Fuser, Reranker), the data that flows
// between them, and the registry of built-in stages. Everything else in the
// engine (config, walking, the pipeline, the plugin host) builds on these
// types, and so do third-party plugins through core/pluginsdk, which is why
// they are plain data with JSON tags: a subprocess plugin receives the same
// values over the wire.
//
// What a stage is given and answers: Info (its namespaced name, kind,
// schema, and for a ranker whether it is Seeded or Scoped),
// Setup (the project, its own state folder, its settings, OneShot),
// Schema and SettingError, so that a stage's rejection of a value points
// at the line of rubi.hcl that set it; ParserSettings, the max_symbols
// block both of rubi's parsers read, decoded and checked once. For
// sources: SourceItem, SourceDocument, Info.DocKind and the checks of a
// source's answers (CheckSourceItems, CheckSourceDocuments). The data:
// SourceFile and FileFacts (EmptyFacts and Recover: what every parser does
// around one file), Import, Symbol, Document, Edge (Edge.Label: the words
// a graph ranker's reason says, "same session as"), Corpus, Query, Hit
// (Hit.Match: the share of the question's telling weight a document
// holds, which the floor reads) and RankedList; for the rerankers, Rerank,
// Reranked and Effect, and Facts, the engine's own knowledge of a query
// that its built-in rankers and rerankers read (FactRanker,
// FactReranker).
//
// What a ranker may assume. Index is given the corpus whole (Full), or
// incrementally (only the changed documents have their bodies; a ranker
// reads a body through Corpus.Body, as an index run reads the files'
// when they are asked for, Corpus.DeferBodies), or, for
// a ranker whose Info says Scoped, as a delta of the notes alone
// (Corpus.Scope, NotesScope; Corpus.TextsOnly when only texts changed: the
// notes are edited far more often than the code, and a delta keeps a hook
// after an edited note from touching the code's part of any index). A
// ranker that keeps state persists it in Setup.StateDir, because a later
// process only ranks, and answers ErrFullIndexNeeded when it cannot apply
// an incremental corpus. Verifier lets an index run check that state
// before it builds on it; Preparer lets a seeded ranker load its state
// while the unseeded ones rank; Info.Seeded rankers run after the others
// with their lists as Query.Seeds.
//
// Built-ins register under namespaced ids (source.*, lang.*, rank.*,
// fuse.*, rerank.*; the engine's evidence rankers query.paths,
// notes.files and query.time sit outside those namespaces) by calling
// Register from an init function: a registry is the only thing an init may
// fill (switches_test.go), so what a program runs never depends on what
// else it happens to link. The package also holds language detection
// (language.go), the CommentMasker type that a program hands its engines
// (comments.go: the core cannot link the regex parser that provides one),
// and EscapePath (non-UTF-8 paths escaped reversibly where output must be
// UTF-8).
package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// PluginProtocol is the major version of the plugin protocol
// (core/pluginsdk, docs/plugin-protocol.md) this rubi speaks.
const PluginProtocol = 1

// ChunkSize is the target size of one parse batch or index chunk: the
// index pipeline batches files by it and the plugin protocol streams a
// corpus in chunks of it.
const ChunkSize = 2 << 20

// Kind is the kind of a pipeline stage.
type Kind string

// The five kinds of stage. Their string forms are the block types of
// rubi.hcl and the plugin names of the wire protocol.
const (
	// KindSource brings documents from outside the code files (Source).
	KindSource Kind = "source"
	KindParser Kind = "parser"
	KindRanker Kind = "ranker"
	KindFuser  Kind = "fuser"
	// KindReranker reorders the fused list (Reranker).
	KindReranker Kind = "reranker"
)

// Kinds lists every stage kind in pipeline order.
var Kinds = []Kind{KindSource, KindParser, KindRanker, KindFuser, KindReranker}

// Info describes a stage. Built-ins and subprocess plugins answer the same.
type Info struct {
	// Name is the namespaced stage id: "lang.regex", "rank.bm25", "fuse.rrf",
	// "source.issues".
	Name    string `json:"name"`
	Kind    Kind   `json:"kind"`
	Version string `json:"version"`
	// Description is one sentence shown by `rubi plugins`.
	Description string `json:"description,omitempty"`
	// DocKind is the kind of a source's documents ("issue", "page"): the
	// first part of their ids, and what a query's kinds filter names.
	DocKind string `json:"doc_kind,omitempty"`
	// Languages a parser understands (see core.Language names).
	Languages []string `json:"languages,omitempty"`
	// Seeded rankers run after the others and receive their results in
	// Query.Seeds (graph rankers such as Personalized PageRank).
	Seeded bool `json:"seeded,omitempty"`
	// Scoped rankers accept a Corpus with a Scope: a delta of the notes'
	// documents alone. Others are given the whole corpus every time.
	Scoped bool `json:"scoped,omitempty"`
	// Stateless stages keep nothing between runs: a parser, a fuser, a
	// reranker, a ranker that ranks from the engine's facts of a question
	// (core.FactRanker). The host makes no state folder for them
	// (Setup.StateDir is empty), and a stateless built-in ranker is no
	// part of the index: an index run gives it no corpus and records no
	// fingerprint of it, so adding or changing one never makes an index
	// outdated.
	Stateless bool `json:"stateless,omitempty"`
	// NoEdges rankers read no edge of a corpus (Corpus.EachEdge,
	// EdgeCount), only its documents: an index run gives them their
	// corpus before it knows the links between files, and they index
	// while it resolves the references (a ranker that says so and reads
	// them anyway waits for them).
	NoEdges bool `json:"no_edges,omitempty"`
	// Schema lists the settings the stage accepts in its rubi.hcl block.
	Schema Schema `json:"schema,omitempty"`
}

// Setup is what a stage receives once, before any other call.
type Setup struct {
	// Root is the absolute path of the project being indexed or searched.
	Root string `json:"root"`
	// StateDir is a directory the stage owns (.rubi/index/<stage name>/);
	// it may persist derived state there between runs. It exists already.
	// It is empty for a stage whose Info says Stateless.
	StateDir string `json:"state_dir"`
	// Settings is a JSON object with the stage's own rubi.hcl attributes,
	// already validated against Info().Schema by the core.
	Settings json.RawMessage `json:"settings,omitempty"`
	// OneShot says the process answers once and exits (a hook, rubi
	// context): a stage may keep the index files it maps mapped, and slice
	// them, instead of copying what it keeps, and need not populate their
	// pages ahead (core/store.Mapped). A long-running process (the MCP
	// server) reloads new versions of the same files and must not keep the
	// old ones.
	OneShot bool `json:"one_shot,omitempty"`
}

// Stage is what every pipeline stage implements.
type Stage interface {
	// Info is cheap and has no side effects.
	Info() Info
	// Configure is called once before any other call. A stage rejects a
	// setting by returning a *SettingError so the core can point at the
	// line of rubi.hcl that set it.
	Configure(ctx context.Context, setup Setup) error
}

// Parser turns source files into facts. It is a pure function of the file
// contents: import resolution is project-level and lives in the core.
type Parser interface {
	Stage
	// Parse returns one FileFacts per input file, in the same order.
	Parse(ctx context.Context, files []SourceFile) ([]FileFacts, error)
}

// Ranker scores documents for a query.
type Ranker interface {
	Stage
	// Index receives the corpus whenever it changes. It is called before
	// Rank in the process that indexes; a later process that only ranks
	// gets Configure and Rank, so a ranker that needs state persists it in
	// Setup.StateDir. Index must be idempotent. Given an incremental corpus
	// (Full unset) it cannot apply, for example because its state is
	// missing, it returns ErrFullIndexNeeded and is called again with Full.
	Index(ctx context.Context, corpus *Corpus) error
	// Rank returns at most q.Limit hits, best first.
	Rank(ctx context.Context, q Query) ([]Hit, error)
}

// Preparer is a ranker that can load what it ranks with before it is
// asked. A seeded ranker waits for the lists that seed it; the engine has
// it prepare meanwhile, so a fresh process does not load its state only
// after the others have ranked. Rank must work without Prepare too.
type Preparer interface {
	Prepare(ctx context.Context) error
}

// Fuser merges several ranked lists into one.
type Fuser interface {
	Stage
	// Fuse returns the fused list, best first. Every returned id appears in
	// at least one input list.
	Fuse(ctx context.Context, lists []RankedList) ([]Hit, error)
}

// Verifier is a ranker that can check the state it persisted: an index
// run asks it before it keeps that state, and rebuilds it in full when
// Verify fails (a file truncated, flipped or deleted since). Verify
// loads what Rank would load, so a query after it pays nothing more.
type Verifier interface {
	Verify(ctx context.Context) error
}

// ErrOutdated is what a Verifier's error wraps when the state it checked
// is sound but was written by another version of rubi (another format,
// another tokenizer): nothing is damaged, and the next index run rebuilds
// it, as it rebuilds damaged state.
var ErrOutdated = errors.New("written by another version of rubi")

// ErrFullIndexNeeded is returned by Ranker.Index to ask for a full corpus.
var ErrFullIndexNeeded = errors.New("full index needed")

// SettingError is a stage's rejection of one of its settings.
type SettingError struct {
	// Setting is the attribute name in the stage's rubi.hcl block; empty
	// when the problem is not tied to one attribute.
	Setting string `json:"setting,omitempty"`
	Message string `json:"message"`
}

func (e *SettingError) Error() string {
	if e.Setting == "" {
		return e.Message
	}
	return fmt.Sprintf("%s: %s", e.Setting, e.Message)
}
