; C (and C++, which runs cpp.scm after it): #include, macros with a
; value, function definitions, structs, unions, enums and typedefs. The
; Go code digs a @declarator for the name it declares (int (*f)(void),
; *g(), A::b()); @line puts a typedef's line on its first line.

(preproc_include path: (string_literal) @import.static)
(preproc_include path: (system_lib_string) @import.system)

; #if 0 blocks are dead code: nothing in them is reported, not even
; includes (@definition.dead; @definition.ignore hides definitions only).
(preproc_if condition: (number_literal) @_zero (#eq? @_zero "0")) @definition.dead

(preproc_def name: (identifier) @name value: (_)) @definition.const
(preproc_function_def name: (identifier) @name) @definition.const

; A function has a return type; without one, NAME(args) { } is a macro
; call (TEST(Suite, Name) { }), unless C++ says otherwise (cpp.scm).
(function_definition type: (_) declarator: (_) @declarator body: (_)) @definition.function

(struct_specifier name: (type_identifier) @name body: (_)) @definition.type
(union_specifier name: (type_identifier) @name body: (_)) @definition.type
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

(type_definition type: (enum_specifier) declarator: (_) @declarator @definition.enum) @line
(type_definition declarator: (_) @declarator @definition.type) @line

(comment) @comment
