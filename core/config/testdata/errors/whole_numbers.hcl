index {
  link_entities = 2.5 # ERROR: 2.5 is not a whole number
}
hooks {
  warn_percent = 1e30 # ERROR: warn_percent in the "hooks" block is a whole number; 1e30 is far too large.
}
