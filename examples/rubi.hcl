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
  weight         = 1.0                     # its vote in the fusion
  timeout        = "5s"
  half_life_days = 14                      # a file 14 days older counts half
  source         = "auto"                  # git history when available, else mtimes
}
