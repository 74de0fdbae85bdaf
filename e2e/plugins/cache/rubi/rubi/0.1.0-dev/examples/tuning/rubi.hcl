# Per-repository tuning: a project's rubi.hcl holds only what it changes;
# everything else comes from rubi's defaults (rubi config check shows the
# result). This one suits a large monorepo with generated code and long
# documentation pages.

index {
  exclude       = ["**/testdata/**", "**/*.pb.go", "**/generated/**", "third_party/**"]
  max_file_size = 262144 # generated files past 256 KiB are noise
}

budgets {
  context = 2500 # bigger answers: the agent works on a large codebase
}

# Names matter more than prose here; long files should not be penalized as
# much (b lower), and repeated terms saturate sooner (k1 lower).
ranker "rank.bm25" {
  k1           = 0.9
  b            = 0.4
  names_weight = 3.0
  body_weight  = 0.8
}

# The import graph is dense: follow edges a bit less, punish hubs more.
ranker "rank.ppr" {
  weight      = 0.7
  damping     = 0.75
  hub_penalty = 0.8
}

# Parsers are per language. Python here is only scripts: their files stay
# searchable by name and content, but no symbols or imports are extracted.
parser "lang.regex" {
  languages = ["go", "javascript", "typescript"]
}
