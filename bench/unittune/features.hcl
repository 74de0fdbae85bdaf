reranker "rerank.units" {
  ranked_files  = 10
  open_first    = 100000
  file_weight   = 1
  file_decay    = 1
  text_weight   = 1
  within_weight = 1
  name_weight   = 1
}
