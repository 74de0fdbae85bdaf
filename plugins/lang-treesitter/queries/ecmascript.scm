; JavaScript and TypeScript alike (javascript.scm and typescript.scm add
; what only one grammar has): ES imports and re-exports, require() and
; import() with a literal, functions, classes and their members,
; variables.

(import_statement (import_clause) source: (string) @import.static)
(import_statement source: (string) @import.side-effect)
(export_statement source: (string) @import.reexport)
(call_expression
  function: (identifier) @_fn
  arguments: (arguments [(string) (template_string)] @import.require)
  (#eq? @_fn "require"))
(call_expression
  function: (import)
  arguments: (arguments [(string) (template_string)] @import.dynamic))

(export_statement !source (export_clause (export_specifier name: (_) @export.name)))

; What a function expression or an arrow function holds is local, like
; what a declared function holds: an IIFE's functions are not the file's.
(function_expression) @definition.ignore
(arrow_function) @definition.ignore

(function_declaration name: (_) @name) @definition.function
(generator_function_declaration name: (_) @name) @definition.function
(export_statement "default" @name value: [(function_expression) (arrow_function)] @definition.function)
(export_statement "default" @name value: (class) @definition.class)
(class_declaration name: (_) @name) @definition.class

(method_definition name: (_) @name) @definition.function

(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.const)
(lexical_declaration (variable_declarator name: (identifier) @name) @definition.var)
(variable_declaration (variable_declarator name: (identifier) @name) @definition.var)

(comment) @comment
