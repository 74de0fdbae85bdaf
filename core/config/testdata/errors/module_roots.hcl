index {
  module_roots = ["services/[", "ok/*"] # ERROR: not a glob of directories
}
