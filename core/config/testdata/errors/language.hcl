language = "de" # ERROR: "de" is not a language rubi speaks. Use one of en, pt, fr, ja
