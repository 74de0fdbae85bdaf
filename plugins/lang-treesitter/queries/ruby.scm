; Ruby: require, require_relative, load and autoload with a literal (no
; receiver: Kernel.require is not read), modules, classes, methods and
; constants. `class << self` is no definition: its methods belong to the
; class around it.

(call !receiver method: (identifier) @_m arguments: (argument_list . (string) @import.require)
  (#match? @_m "^(require|load)$"))
(call !receiver method: (identifier) @_m arguments: (argument_list . (string) @import.relative)
  (#eq? @_m "require_relative"))
(call !receiver method: (identifier) @_m arguments: (argument_list (simple_symbol) . (string) @import.require)
  (#eq? @_m "autoload"))

(module name: (scope_resolution name: (constant) @name)) @definition.module
(module name: (constant) @name) @definition.module
(class name: (scope_resolution name: (constant) @name)) @definition.class
(class name: (constant) @name) @definition.class

(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function

(assignment left: (constant) @name) @definition.const

(comment) @comment
