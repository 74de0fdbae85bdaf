; C++ only, after c.scm: namespaces (their definitions are top-level; an
; anonymous one's are file-local), classes, constructors and destructors
; (no return type), friends (not members).

(namespace_definition name: (_) @name) @definition.module
(namespace_definition !name) @definition.local
(class_specifier name: (_) @name body: (_)) @definition.class
(friend_declaration) @definition.ignore

(field_declaration_list (function_definition !type declarator: (_) @declarator body: (_)) @definition.function)
(function_definition !type declarator: (function_declarator declarator: (qualified_identifier)) @declarator body: (_)) @definition.function
