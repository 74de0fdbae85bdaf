index {
  reference_edges = -0.5 # ERROR: between 0 (imports alone) and 10
}
