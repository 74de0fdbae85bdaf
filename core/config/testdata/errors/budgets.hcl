budgets {
  context = -1 # ERROR: between 100
  recall  = 0 # ERROR: between 100
  map     = 2000000 # ERROR: between 100
}
