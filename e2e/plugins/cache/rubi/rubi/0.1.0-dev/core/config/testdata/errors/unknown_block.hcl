index {}
rankers "rank.bm25" { # ERROR: Unsupported block type
}
valt = "~/x" # ERROR: Unsupported argument
