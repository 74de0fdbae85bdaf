ranker { # ERROR: Missing name for ranker
  weight = 2
}
