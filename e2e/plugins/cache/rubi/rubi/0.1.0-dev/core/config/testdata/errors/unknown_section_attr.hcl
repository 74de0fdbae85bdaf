index {
  max_size = 10 # ERROR: Did you mean "max_file_size"?
}
budgets {
  contxt = 100 # ERROR: Did you mean "context"?
  tokens = 5   # ERROR: Valid arguments are: context, map, recall.
}
