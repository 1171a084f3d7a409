; winnow's OCaml query, first part, shared by implementations (.ml) and
; interfaces (.mli). Capture names follow the contract in doc.go. An
; implementation's query continues with ocaml_implementation.scm, then
; both continue with ocaml_rest.scm.

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
; The patterns for values at the top of a file come next, in
; ocaml_implementation.scm: interfaces cannot have them.
