budgets {
  map = "abc" # ERROR: map in the "budgets" block is a whole number of tokens between 100 (room for one item) and 1048576; "abc" is not one (a number is required).
}
