"""pantry: what is in the kitchen."""
