# rerank.units as bench/unittune reads it: every unit of the first ten
# files in the listing across files, each part of its score raw (every
# weight 1; file_weight's part 1/(1+p) gives the file's place p), the
# references' parts too (unittune -neighbours tunes them). The dump reads
# every unit of the ten files (read_bytes past any budget unittune
# -budgets tries), and the class parts are left to unittune -classes.
reranker "rerank.units" {
  ranked_files  = 10
  read_bytes    = 16777216
  open_first    = 100000
  open_files    = 0
  file_weight   = 1
  file_decay    = 1
  text_weight   = 1
  within_weight = 1
  name_weight   = 1
  calls_named_weight = 1
  named_calls_weight = 1
  names_used_weight  = 1
  quoted_weight      = 1
  test_weight        = 1
  class_methods_weight = 0
  method_class_weight  = 0
}
