budgets {
  context = 1500.5 # ERROR: context in the "budgets" block is a whole number of tokens between 100 (room for one item) and 1048576; 1500.5 is not a whole number.
}
