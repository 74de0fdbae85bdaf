require_relative "lib/lendbook"

run Lendbook::App
