# A project layer that tunes the defaults.
index {
  exclude       = ["**/testdata/**"]
  max_file_size = 2048
}
budgets {
  context = 3000
}
ranker "rank.bm25" {
  k1     = 1.5
  weight = 2
}
ranker "rank.ppr" {
  enabled = false
}
ranker "rank.recency" {
  plugin  = "bin/rubi-rank-recency"
  timeout = "2s"
}
