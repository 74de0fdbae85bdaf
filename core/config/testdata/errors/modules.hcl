index {
  module_depth = 9 # ERROR: between 1 and 8
}
