ranker "rank.bm25" {
  weight = 1
}
ranker "rank.bm25" { # ERROR: Duplicate block
  weight = 2
}
