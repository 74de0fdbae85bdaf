budgets {
  recall = 50 # ERROR: 50 is below 100: no item of an answer fits in fewer tokens
}
