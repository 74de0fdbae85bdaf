; Rust: extern crate, mod declarations (an import and a symbol), use
; trees (flattened by the Go code, self and super made relative to the
; file), items, and impl blocks, whose functions are methods of the type.

(extern_crate_declaration name: (identifier) @import.static)
(use_declaration argument: (_) @import.tree)
(mod_item !body name: (identifier) @name @import.module) @definition.module
(mod_item name: (identifier) @name) @definition.module

; Declarations in an extern "C" block are not this file's definitions.
(foreign_mod_item) @definition.ignore

(impl_item type: (_) @scope.name) @scope

(function_item name: (_) @name) @definition.function
(function_signature_item name: (_) @name) @definition.function
(macro_definition name: (_) @name) @definition.function
(struct_item name: (_) @name) @definition.type
(union_item name: (_) @name) @definition.type
(enum_item name: (_) @name) @definition.enum
(trait_item name: (_) @name) @definition.interface
(type_item name: (_) @name) @definition.type
(const_item name: (_) @name) @definition.const
(static_item name: (_) @name) @definition.var

[(line_comment) (block_comment)] @comment
