index {
  max_file_size = "big" # ERROR: a number is required
  include       = "*.go" # ERROR: list of string required
}
ranker "rank.bm25" {
  weight  = "heavy" # ERROR: a number is required
  timeout = "soon"  # ERROR: not a positive duration
  enabled = "yes"   # ERROR: a bool is required
}
