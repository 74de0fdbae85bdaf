# rubi.hcl — rubi's default pipeline.
#
# rubi reads this file (compiled into the binary) first, then your personal
# ~/.config/rubi/config.hcl, then the rubi.hcl at the root of the project,
# then command-line flags; each layer overrides the attributes it sets and
# keeps the rest. A project's rubi.hcl therefore holds only what it changes,
# for example:
#
#   ranker "rank.bm25" { k1 = 1.5 }
#
# `rubi config check` validates the layers and prints the resolved pipeline.

# Personal vault: preferences that apply to every project. RUBI_VAULT wins.
vault = "~/rubi-vault"

# The language of what rubi says to agents and people: "en", "pt", "fr" or
# "ja" (a tag such as "pt-BR" works too). Unset, as here: the locale's
# (LC_ALL, LC_MESSAGES, LANG), else English.
# language = "en"

# What the index pipeline walks. Paths are slash paths relative to the
# project root; globs use ** for any depth. Nested .gitignore files,
# .git/info/exclude, .ignore and .rubiignore are always honoured.
index {
  include          = []         # empty: every file not ignored
  exclude          = []         # e.g. ["**/testdata/**", "docs/generated/**"]
  default_excludes = true       # skip .git, node_modules, vendor, dist, build, target, ...
  max_file_size    = 1048576    # bytes; larger files are skipped and counted
  # File roles kept out of search and of the map's centrality (the files
  # are still listed): roles are code, test, docs, config, build, data,
  # vendored (vendor/, _vendor/, third_party/, linguist-vendored) and
  # generated ("Code generated … DO NOT EDIT", lock files, minified files,
  # linguist-generated). [] brings them back.
  hidden_roles     = ["vendored", "generated"]
  # Notes and conversation chunks that belong together are linked in the
  # graph without anyone saying so: those written one after the other in
  # one session (a chunk's session; notes minutes apart), and those naming
  # the same rare person, place, product, ticket, file or symbol (named by
  # at most link_entities of them; 0 turns it off).
  link_sessions    = true
  link_entities    = 8
  # A conversation chunk is indexed with the start of the one before it in
  # its session: an answer is found by the words of the question it answers.
  session_context  = true
  # Modules of the map: a directory with a package manifest (go.mod,
  # package.json, Cargo.toml, pom.xml, build.gradle, pyproject.toml, ...),
  # a Python package, and the directories module_roots names (doublestar
  # globs, e.g. ["services/*", "libs/**/src"]); the deepest one holding a
  # file is its module. A file none holds is in the module of its first
  # module_depth directories.
  module_roots     = []
  module_depth     = 2
  # References between definitions (who calls a function, who uses a
  # type), found in every index run for `rubi refs`; false skips the step.
  references       = true
  # The files' centrality (the map's order, its central files) counts a
  # file's uses of another file's definitions beside its imports:
  # log2(1 + uses) times this weight, an import weighing 1; 0: imports
  # alone. It orders a Go package's files, which all import alike.
  reference_edges  = 1
  # A cap, in MiB, on the memory an index run takes: the garbage collector
  # works harder as the run nears it (more CPU) instead of letting the heap
  # grow to twice what it holds. 0: no cap. A run that needs more than the
  # cap still gets it. Set it in ~/.config/rubi/config.hcl for every project.
  memory_limit     = 0
}

# Token budgets (one estimator everywhere: docs/architecture.md).
budgets {
  context = 1500  # rubi context / the MCP context tool
  recall  = 700   # what the prompt hook may inject
  map     = 500   # the level-0 map injected at session start
}

# Hook thresholds.
hooks {
  compact_window   = 150000  # tokens at which the session should be compacted
  warn_percent     = 80      # ask for a handoff at this share of the window
  harvest_min      = 10      # reads/searches before asking to register facts
  read_guard_lines = 800     # a full read of a longer file is blocked once
  read_guard_bytes = 80000
}

# Conversation memory (.rubi/sessions/, rubi memory): size and retention.
memory {
  max_chunk_size = 524288                          # bytes
  archive_after  = 30                              # days unused before a chunk is archived (gzip)
  purge_after    = 180                             # days an archive is kept before it is deleted
  keep_tags      = ["critical", "decision", "keep"] # chunks with these tags are never archived
  keep_reads     = 5                               # nor chunks read this many times
  keep_keywords  = []                              # nor chunks whose text holds one of these words
}

# Parsers, by language. Every stage block takes these meta-arguments:
#   plugin  = "path/to/binary"  run a subprocess plugin instead of a built-in
#                               (relative to this file; a bare name is looked
#                               up on PATH; failing both, a binary of the
#                               same name next to rubi's is used)
#   enabled = false             switch the stage off
#   timeout = "10s"             per call; a plugin past it is stopped and the
#                               built-in of its kind takes over
# A parser declared later (or in a later layer) takes over the languages it
# names, so swapping in tree-sitter for Go is (`make plugins` builds the
# binary; docs/parsers.md compares the two parsers):
#
#   parser "lang.treesitter" {
#     plugin    = "bin/rubi-lang-treesitter"
#     languages = ["go"]
#   }
parser "lang.regex" {
  languages = [
    "go", "python", "javascript", "typescript", "vue", "svelte", "rust", "java",
    "kotlin", "php", "ruby", "c", "cpp", "css", "dart",
  ]
  max_symbols = 2000  # per file
}

# Go is read by the standard library's go/parser (built in, pure Go):
# receivers, interface methods and docs as the compiler sees them; what
# does not parse gets lang.regex's facts. Declared after lang.regex, it
# takes "go" over; `enabled = false` here gives Go back to lang.regex.
parser "lang.go" {
  languages   = ["go"]
  max_symbols = 2000  # per file
}

# Rankers run in parallel on every query. weight scales a ranker's vote in
# the fusion. Seeded rankers (rank.ppr) run after the others and start from
# their results.
ranker "rank.bm25" {
  weight       = 1.0
  k1           = 1.2   # term-frequency saturation
  b            = 0.75  # length normalization
  k3           = 8     # a word the question repeats counts (k3+1)·n/(k3+n); 0: once
  title_weight = 3.0
  path_weight  = 2.5
  names_weight = 2.0
  body_weight  = 1.0
  parts_weight = 0.25  # parts of identifiers in the body (the "client" of newClient), times body_weight
  stemmer      = "english"
}

ranker "rank.names" {
  weight     = 0.25  # a precise but narrow vote (bench/quality: heavier costs accuracy)
  min_prefix = 4     # shortest question word matched as the start of a name
  typos      = true  # match names one edit away (two from nine letters)
}

# The files the question names by path (traceback frames, path:line, file
# names) vote, and seed the graph.
ranker "query.paths" {
  weight       = 1.5  # a path written in the question is strong evidence
  max_matches  = 4    # a bare file name standing for more files says too little
  max_mentions = 60   # path mentions resolved for one question
}

# "what calls X", "where is X used": the files that reference X (the
# index's references, X resolved as `rubi refs` resolves it), the most
# references first. A question that asks no such thing gets no list.
ranker "query.callers" {
  weight    = 4.0  # the answer to the question asked: ahead of X's definition
  max_names = 4    # names of one question looked up
  max_files = 50   # files listed at most
}

ranker "rank.ppr" {
  weight      = 1.25  # the graph's vote: neighbours of the matches (see bench/quality)
  damping     = 0.85  # probability of following an edge rather than restarting at a seed
  hub_penalty = 0.5   # discount for files that everything imports
  max_seeds   = 20
  # The walk's weight of the uses between two files (log2(1 + uses) each),
  # an import's being 1; 0 leaves them out: on SWE-bench dev they found
  # nothing more (bench/results/quality-2026-12-06-refedges.md).
  references  = 0
  # The graph's vote for a question that reads as a bug report, times its
  # weight: on real reports a full-weight walk from their many matches
  # crowds the files they are about out of the first five (bench/quality).
  # Every ranker block takes report_weight; it is 1 unless set.
  report_weight = 0.4
}

# A note is also found by the notes written next to it, for a question
# asked of notes and chunks alone (the recall hook's, `rubi context
# --kinds node,chunk`): the decision registered minutes after the note
# that raised the question, the reply after the turn that repeats the
# question's words. It reads index.link_sessions' session edges (a note
# and the one registered within half an hour after it; a chunk and the
# next two of its session). A note's score is its own match of the
# question (own times, for each word ranker's list, the list's weight
# times its score over the list's best, within its first candidates),
# plus previous times the match of the one written before it and next
# times that of the one written after it (times the edge's weight), plus
# sitting times the best match among the notes linked one after the
# other with it (its sitting). kinds: "node" and/or "chunk" (a chunk is
# indexed with the start of the one before it already: index.session_context);
# questions = "all" ranks questions of every kind too. The weights were
# chosen by leave-one-conversation-out on LoCoMo's dev conversations (every
# fold chose these): notes' recall at 5 / 10, 67.0 / 76.6 held out against
# 63.1 / 71.5 without the stage; chunks' unchanged (bench/quality -memory,
# bench/results/quality-2026-12-06-memory-signals.md).
# Reads one small file a query: the notes' ids and session edges.
ranker "rank.neighbours" {
  weight     = 2.5
  previous   = 2
  next       = 1
  sitting    = 4
  own        = 1
  candidates = 50
  kinds      = ["node"]
  questions  = "notes"
}

# The files of the notes that match the question as well as its best hits
# vote: a note names the files it is about, whatever words they use.
ranker "notes.files" {
  weight        = 0.5   # a hint where to look, not a match of the question's words
  note_share    = 0.75  # a note matches well at this share of a ranker's best score
  max_note_rank = 50    # ... within the ranker's first places
  max_notes     = 2     # notes that lend their files
  max_files     = 8     # a note about more files is about an area: it lends none
}

# "in June", "8 May 2023", "last week": the notes and chunks written then,
# among those the question's words found, vote.
ranker "query.time" {
  weight     = 1.0
  candidates = 100  # notes and chunks whose date is read
}

# Exactly one fuser merges the rankers' lists.
fuser "fuse.rrf" {
  k = 60  # Reciprocal Rank Fusion: score = sum of weight / (k + rank)
}

# Rerankers reorder the fused list, one after the other in this order.
# They are built-in (no plugin =); enabled = false switches one off.

# What a file's role says before any query: tests, fixtures and
# benchmark suites count test_weight unless the question is about tests; a question about code
# weighs docs and data (docs_weight) and configuration and build files
# (config_weight) down. Rescales scores.
reranker "rerank.roles" {
  test_weight   = 0.5
  role_priors   = true
  docs_weight   = 0.3
  config_weight = 0.5
}

# Notes matching as well as the best files come first: a note a ranker of
# the question's own words scores at least note_share of its best hit
# (within max_note_rank) moves to the second place, the next to the third.
reranker "rerank.notes" {
  note_share    = 0.75
  max_note_rank = 50
  max_lifted    = 2
}

# Under each file, the functions and classes to open, ranked for the
# question: by their lines for the first ranked_files files of the list as
# it stands here, read within read_bytes (the first file whole; the files
# after the one that would pass it are not read), by the names the
# question gives for the others. The answer starts with the open_first
# best units of the first open_files of those files in one list, on a
# score comparable across files: the file's standing (place p from 0:
# file_weight / (1 + file_decay * p)), the unit's lines matched with one
# weighting of words over all the units read (text_weight, the best 1),
# matched within its own file (within_weight, the file's best 1), the
# question naming it or pointing into it (name_weight), and for a class
# class_methods_weight of its best method's own score (those parts), for
# a method method_class_weight of its class's. Chosen by cross-validation
# over SWE-bench dev (bench/unittune -classes;
# bench/results/quality-2026-12-06-fnunits.md): function Acc@10 49.5 held
# out against 49.0 on the same grid without the class parts, 45.4 before
# the listing; a budget of 1 MiB against 512 KiB lets the listing draw on
# all ten files. For "what calls X", a
# unit that calls or uses X adds caller_weight: the callers lead, above X's
# definition, which the question names. calls_named_weight and
# named_calls_weight weigh a unit that calls, or is called by, a unit the
# question names (the references' edges): no gain under cross-validation on
# SWE-bench dev (bench/results/quality-2026-12-06-callers.md), so 0, and
# the edges are not looked up. names_used_weight weighs a unit whose lines
# use the code names the question writes (snake_case, camelCase, dunder
# names; by how telling each is among the units read, the best 1),
# quoted_weight one holding a quoted string the question writes (an error
# message), test_weight is what a test file's unit loses unless the
# question asks for tests: with them, function Acc@10 46.9 held out against
# 48.5 on the same grid without (bench/results/quality-2026-12-06-unitscore.md),
# so 0, and the question's names and quotes are not looked for.
reranker "rerank.units" {
  max_units            = 4
  ranked_files         = 10
  read_bytes           = 1048576
  open_first           = 10
  open_files           = 10
  file_weight          = 0.5
  file_decay           = 0.5
  text_weight          = 1
  within_weight        = 0.25
  name_weight          = 0.5
  caller_weight        = 4
  calls_named_weight   = 0
  named_calls_weight   = 0
  names_used_weight    = 0
  quoted_weight        = 0
  test_weight          = 0
  class_methods_weight = 0.25
  method_class_weight  = 0.25
}

# A weak match is no match: a note, module or source item (and a file its
# words alone found) must match floor of the question's telling weight.
# 0.30 was chosen by cross-validation on the recall hook's dev set
# (agent/hooks TestMatchFloorIsCrossValidated). In a question about the
# memory alone (the recall hook's, rubi context --kinds node), a note of a
# type in type_floors has that type's floor instead: a conversation's turn
# saved as a note (type note) is asked about in other words than were
# said, as a conversation chunk is, which no floor holds to; 0 was chosen
# by leave-one-conversation-out on LoCoMo's dev conversations
# (bench/quality -memory, bench/results/quality-2026-12-06-memory-loco.md).
# A question about the code too holds every note to floor.
reranker "rerank.floor" {
  floor       = 0.30
  type_floors = { note = 0 }
}
