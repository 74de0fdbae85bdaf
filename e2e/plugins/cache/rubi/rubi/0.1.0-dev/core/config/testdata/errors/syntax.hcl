ranker "rank.bm25" {
  k1 = = 2 # ERROR: Invalid expression
}
