; TypeScript only, after ecmascript.scm: types, interfaces, enums, namespaces,
; signatures, class fields holding functions.

(import_statement (import_require_clause source: (string) @import.require))

(ambient_declaration (module) @definition.ignore)

(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.type
(internal_module name: (_) @name) @definition.module
(abstract_class_declaration name: (_) @name) @definition.class
(function_signature name: (_) @name) @definition.function
(method_signature name: (_) @name) @definition.function
(abstract_method_signature name: (_) @name) @definition.function
(public_field_definition name: (_) @name value: [(arrow_function) (function_expression)]) @definition.function
