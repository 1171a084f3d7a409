; winnow's OCaml query for implementations (.ml). Capture names follow
; the contract in doc.go. queries/ocaml_interface.scm is this file
; without its "implementation only" section; TestOCamlQueriesMatch keeps
; the two in step.

; ---- definitions -----------------------------------------------------

; Types. A variant type is an enum, a record type a struct, anything
; else (alias, abstract, polymorphic variant) a type. A definition with
; one binding is the definition, so that its signature runs past the
; "=" (type id = int); each binding of type a = … and b = … is one on
; its own.
(type_definition
  .
  (type_binding
    name: (type_constructor) @name
    body: (variant_declaration))
  .) @definition.enum

(type_definition
  .
  (type_binding
    name: (type_constructor) @name
    body: (record_declaration))
  .) @definition.struct

(type_definition
  .
  (type_binding
    name: (type_constructor) @name)
  .) @definition.type

[(type_definition
   (type_binding)
   (type_binding
     name: (type_constructor) @name
     body: (variant_declaration)) @definition.enum)
 (type_definition
   (type_binding
     name: (type_constructor) @name
     body: (variant_declaration)) @definition.enum
   (type_binding))]

[(type_definition
   (type_binding)
   (type_binding
     name: (type_constructor) @name
     body: (record_declaration)) @definition.struct)
 (type_definition
   (type_binding
     name: (type_constructor) @name
     body: (record_declaration)) @definition.struct
   (type_binding))]

[(type_definition
   (type_binding)
   (type_binding
     name: (type_constructor) @name) @definition.type)
 (type_definition
   (type_binding
     name: (type_constructor) @name) @definition.type
   (type_binding))]

; exception E of t: a type of its own (a constructor of exn).
(exception_definition
  (constructor_declaration
    (constructor_name) @name) @definition.type)

(constructor_declaration
  (constructor_name) @name) @definition.enum_member

(field_declaration
  (field_name) @name) @definition.field

; Modules, functors and module types. Like types, a module definition
; with one binding is the definition (its signature shows a functor
; application: module M = Map.Make (String)).
(module_definition
  .
  (module_binding
    (module_name) @name)
  .) @definition.module

[(module_definition
   (module_binding)
   (module_binding
     (module_name) @name) @definition.module)
 (module_definition
   (module_binding
     (module_name) @name) @definition.module
   (module_binding))]

(module_type_definition
  (module_type_name) @name) @definition.interface

; Top-level values (in a file or a module's struct … end); let … in is
; local. A binding with parameters or a fun/function body is a function.
; Other values are variables when the name is followed by "=" or a type
; and the body is not a function. A single binding is the definition
; (a variable's signature shows its value); each of let a = … and b = …
; is one on its own.
;
; The patterns for values at the top of a file come first: interfaces
; cannot have them, and queries/ocaml_interface.scm leaves them out.

; ---- implementation only ----
(compilation_unit
  (value_definition
    (let_binding
      pattern: [(value_name) @name
                (parenthesized_operator (_) @name)]
      (parameter)) @definition.function))

(compilation_unit
  (value_definition
    (let_binding
      pattern: [(value_name) @name
                (parenthesized_operator (_) @name)]
      body: [(function_expression) (fun_expression)]) @definition.function))

((compilation_unit
  (value_definition
    .
    (let_binding
      pattern: (value_name) @name
      body: (_) @_body) @_binding
    .) @definition.variable)
  (#match? @_binding "^[a-z_][A-Za-z0-9_']*\\s*[=:]")
  (#not-match? @_body "^fun(ction)?\\b"))

([(compilation_unit
    (value_definition
      (let_binding)
      (let_binding
        pattern: (value_name) @name
        body: (_) @_body) @_binding @definition.variable))
  (compilation_unit
    (value_definition
      (let_binding
        pattern: (value_name) @name
        body: (_) @_body) @_binding @definition.variable
      (let_binding)))]
  (#match? @_binding "^[a-z_][A-Za-z0-9_']*\\s*[=:]")
  (#not-match? @_body "^fun(ction)?\\b"))
; ---- end of implementation only ----

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
