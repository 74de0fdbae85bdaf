index {
  references = "always" # ERROR: a bool is required
}
