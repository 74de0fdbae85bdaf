; Go: the package clause, imports, top-level definitions and methods.

(package_clause (package_identifier) @package)

(import_spec name: (blank_identifier) path: (_) @import.side-effect)
(import_spec path: (_) @import.static)

(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @parent
             (pointer_type (type_identifier) @parent)
             (generic_type type: (type_identifier) @parent)
             (pointer_type (generic_type type: (type_identifier) @parent))]))
  name: (field_identifier) @name) @definition.method

; Types declared inside a function body are local: only the file's count.
(source_file (type_declaration (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface))
(source_file (type_declaration (type_spec name: (type_identifier) @name) @definition.type))
(source_file (type_declaration (type_alias name: (type_identifier) @name) @definition.type))

(source_file (const_declaration (const_spec (identifier) @name) @definition.const))
(source_file (var_declaration (var_spec (identifier) @name) @definition.var))
(source_file (var_declaration (var_spec_list (var_spec (identifier) @name) @definition.var)))

(comment) @comment
