# Swap a third-party ranker into the pipeline.
#
# rank.recency (examples/rank-recency) favours files that changed recently.
# Build it next to this file, then copy this block into your project's
# rubi.hcl (or pass this file with --config):
#
#   go build -o examples/bin/rubi-rank-recency ./examples/rank-recency
#   rubi context "config loading" --config examples/rubi.hcl --explain
#
# It runs as a subprocess: if it fails to start, crashes, hangs past its
# timeout or answers nonsense, rubi prints one line naming it and goes on
# with the built-in rankers.
ranker "rank.recency" {
  plugin         = "bin/rubi-rank-recency" # relative to this file
  # Its vote in the fusion. Reciprocal Rank Fusion is flat at the top
  # (1/61 for a first place, 1/62 for a second), so a lone ranker needs a
  # weight above 2 to outvote the text and graph rankers when they agree.
  weight         = 3.0
  timeout        = "5s"
  half_life_days = 14                      # a file 14 days older counts half
  source         = "auto"                  # git history when available, else mtimes
}
