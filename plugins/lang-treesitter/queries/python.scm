; Python: imports (static, and importlib.import_module, import_module and
; __import__ with a literal first argument),
; functions and classes at any depth (locals are dropped by the Go code),
; UPPER_CASE module constants, __all__.

(import_statement name: (dotted_name) @import.static)
(import_statement name: (aliased_import name: (dotted_name) @import.static))
(import_from_statement module_name: (_) @import.static name: (dotted_name) @import.name)
(import_from_statement module_name: (_) @import.static name: (aliased_import name: (dotted_name) @import.name))
(import_from_statement module_name: (_) @import.static)
(future_import_statement "__future__" @import.static)

(call
  function: (attribute object: (identifier) @_mod attribute: (identifier) @_fn)
  arguments: (argument_list . (string) @import.dynamic)
  (#eq? @_mod "importlib") (#eq? @_fn "import_module"))
(call
  function: (identifier) @_fn
  arguments: (argument_list . (string) @import.dynamic)
  (#match? @_fn "^(__import__|import_module)$"))

(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

(module (expression_statement
  (assignment left: (identifier) @name) @definition.const)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module (expression_statement
  (assignment
    left: (identifier) @_all
    right: [(list (string) @export.name) (tuple (string) @export.name)])
  (#eq? @_all "__all__")))

(comment) @comment
