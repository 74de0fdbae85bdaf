; Java: the package, imports (the whole declaration: the Go code joins a
; name split over lines), types and their members. Anonymous classes hold
; no reported members.

(package_declaration [(scoped_identifier) (identifier)] @package)
(import_declaration) @import.static

(object_creation_expression (class_body) @definition.ignore)

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

(method_declaration name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function
(compact_constructor_declaration name: (identifier) @name) @definition.function
(annotation_type_element_declaration name: (identifier) @name) @definition.function

[(line_comment) (block_comment)] @comment
