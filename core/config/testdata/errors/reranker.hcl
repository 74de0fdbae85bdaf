reranker "rerank.floor" {
  plugin = "bin/my-floor" # ERROR: Rerankers are built-in
}
ranker "rank.ppr" {
  report_weight = 2 # ERROR: between 0 (no vote) and 1
}
retrieve {
  colour = true # ERROR: not expected in the "retrieve" block
}
