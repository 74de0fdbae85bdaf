index {
  memory_limit = 16 # ERROR: 0 (no cap) or at least 64
}
