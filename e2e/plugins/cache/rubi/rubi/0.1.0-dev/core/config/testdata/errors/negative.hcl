index {
  max_file_size = -1 # ERROR: cannot be negative
}
ranker "rank.bm25" {
  weight = -2 # ERROR: cannot be negative
}
