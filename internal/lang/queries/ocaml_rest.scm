; winnow's OCaml query, last part, shared by .ml and .mli. See ocaml.scm.

(structure
  (value_definition
    (let_binding
      pattern: [(value_name) @name
                (parenthesized_operator (_) @name)]
      (parameter)) @definition.function))

(structure
  (value_definition
    (let_binding
      pattern: [(value_name) @name
                (parenthesized_operator (_) @name)]
      body: [(function_expression) (fun_expression)]) @definition.function))

((structure
  (value_definition
    .
    (let_binding
      pattern: (value_name) @name
      body: (_) @_body) @_binding
    .) @definition.variable)
  (#match? @_binding "^[a-z_][A-Za-z0-9_']*\\s*[=:]")
  (#not-match? @_body "^fun(ction)?\\b"))

([(structure
    (value_definition
      (let_binding)
      (let_binding
        pattern: (value_name) @name
        body: (_) @_body) @_binding @definition.variable))
  (structure
    (value_definition
      (let_binding
        pattern: (value_name) @name
        body: (_) @_body) @_binding @definition.variable
      (let_binding)))]
  (#match? @_binding "^[a-z_][A-Za-z0-9_']*\\s*[=:]")
  (#not-match? @_body "^fun(ction)?\\b"))

; Signatures (.mli files, sig … end): val of a function type is a
; function, any other val a variable.
(value_specification
  [(value_name) @name
   (parenthesized_operator (_) @name)]
  type: [(function_type)
         (polymorphic_type (function_type))]) @definition.function

(value_specification
  [(value_name) @name
   (parenthesized_operator (_) @name)]) @definition.variable

(external
  [(value_name) @name
   (parenthesized_operator (_) @name)]) @definition.function

; Classes and class types, their methods and instance variables.
(class_binding
  (class_name) @name) @definition.class

(class_type_binding
  (class_type_name) @name) @definition.interface

(method_definition
  (method_name) @name) @definition.method

(method_specification
  (method_name) @name) @definition.method

(instance_variable_definition
  (instance_variable_name) @name) @definition.field

(instance_variable_specification
  (instance_variable_name) @name) @definition.field

; ---- references ------------------------------------------------------

(application_expression
  function: [(value_path (value_name) @reference.call)
             (constructor_path (constructor_name) @reference.call)])

(method_invocation
  method: (method_name) @reference.call)

(new_expression
  (class_path (class_name) @reference.call))

(type_constructor_path
  (type_constructor) @reference.type)

(module_type_path
  (module_type_name) @reference.type)

(class_path
  (class_name) @reference.type)

(field_get_expression
  field: (field_path (field_name) @reference.member))

(field_expression
  (field_path (field_name) @reference.member))

(field_pattern
  (field_path (field_name) @reference.member))

(instance_variable_name) @reference.member

(value_name) @reference.name
(value_pattern) @reference.name
(constructor_name) @reference.name
(module_name) @reference.name

; ---- imports ---------------------------------------------------------

; open M, open! M, let open M in, include M.
(open_module
  module: (_) @import.module) @import

(include_module
  module: (module_path) @import.module) @import
