ranker "BM25" { # ERROR: Invalid stage name
}
ranker "fuse.mine" { # ERROR: namespace, which is for fusers
}
