; JavaScript only, after ecmascript.scm: class fields holding functions.

(field_definition property: (_) @name value: [(arrow_function) (function_expression)]) @definition.function
