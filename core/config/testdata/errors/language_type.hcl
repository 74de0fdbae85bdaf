language = ["ja"] # ERROR: Unsuitable value
