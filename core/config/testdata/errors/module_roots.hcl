index {
  module_roots = ["services/[", "ok/*"] # ERROR: a list of globs of directories relative to the project root (doublestar syntax: services/*, libs/**/src); "services/[" is not one.
}
