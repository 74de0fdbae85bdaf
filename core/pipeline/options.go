package pipeline

import (
	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/refs"
)

// Options are what the program running an engine decides for it: its
// main (which plugin transport it links) or the command it runs (whether
// it answers once and exits). Nothing of it is process-wide: two engines
// of one process may differ.
type Options struct {
	// Logger receives the engine's and its stages' logs; nil discards
	// them.
	Logger hclog.Logger
	// Launcher starts the subprocess plugins rubi.hcl names
	// (host.Options.Launcher): core/subprocess's, made by the main of a
	// program that links it (rubi-full, rubi-mcp). nil in the others: a
	// plugin fails to start and its built-in runs, unless the program
	// handed the run to rubi-full first (host.StartsPlugins).
	Launcher host.Launcher
	// OneShot says the process answers once and exits (a hook, rubi
	// context): the engine and its stages (core.Setup.OneShot) keep the
	// index files they map mapped instead of copying out of them
	// (core/store.Mapped). Never in a long-running process: the MCP
	// server reloads new versions of the same files.
	OneShot bool
	// MaskComments blanks comments before the knowledge graph hashes code
	// for notes' anchors (knowledge.Options.MaskComments): the regex
	// parser's lexer, plugins/lang-regex's MaskComments, which the core
	// cannot link. Every program hands the same one; nil hashes code other
	// than Go with its comments.
	MaskComments core.CommentMasker
	// Resolvers find the references between the project's definitions
	// (core/refs), each for its languages, in every index run: a list
	// the program makes, since the resolvers live above the core. Every
	// program hands the same ones; a table another set wrote is rebuilt.
	// None keeps no references (`rubi refs` then says so).
	Resolvers []refs.Resolver
	// LimitMemory steers the process's garbage collector for an index run
	// until release is called, capping its memory at mib MiB
	// (index.memory_limit; 0 for no cap); the engine calls it for each
	// index run. It is the program's (internal/programs.LimitMemory): the
	// setting is the whole process's. nil leaves the collector as it is.
	LimitMemory func(mib int) (release func())
}
