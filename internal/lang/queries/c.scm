; winnow's C query. Capture names follow the contract in doc.go.
;
; Only .c files use it; headers are read as C++ (queries/cpp.scm), so
; prototypes and extern declarations, which in a .c file only restate
; what is defined elsewhere, are not definitions here.

; ---- definitions -----------------------------------------------------

; Functions, including those returning pointers (the declarator nests).
(function_definition
  declarator: [(function_declarator
                 declarator: (identifier) @name)
               (pointer_declarator
                 declarator: (function_declarator
                   declarator: (identifier) @name))
               (pointer_declarator
                 declarator: (pointer_declarator
                   declarator: (function_declarator
                     declarator: (identifier) @name)))]) @definition.function

; typedef struct [tag] {…} name; is the struct called name: that is what
; callers write. These come before the tagged patterns below and win on
; the same node; the typedef wraps the struct (see c.go).
(type_definition
  type: (struct_specifier body: (_)) @definition.struct
  declarator: (type_identifier) @name)

(type_definition
  type: (union_specifier body: (_)) @definition.union
  declarator: (type_identifier) @name)

(type_definition
  type: (enum_specifier body: (_)) @definition.enum
  declarator: (type_identifier) @name)

(struct_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.union

(enum_specifier
  name: (type_identifier) @name
  body: (_)) @definition.enum

(enumerator
  name: (identifier) @name) @definition.enum_member

; Any other typedef: of a scalar, a pointer, an array, a function
; pointer, or a struct declared elsewhere.
(type_definition
  type: (_ !body)
  declarator: [(type_identifier) @name
               (pointer_declarator
                 declarator: (type_identifier) @name)
               (array_declarator
                 declarator: (type_identifier) @name)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator
                     declarator: (type_identifier) @name)))]) @definition.type

; Fields. A field whose type is a tagged struct defined in place is left
; out: the struct is the definition (a field would wrap it and rename it).
(field_declaration
  type: [(_ !body)
         (struct_specifier !name)
         (union_specifier !name)
         (enum_specifier !name)]
  declarator: [(field_identifier) @name
               (pointer_declarator
                 declarator: (field_identifier) @name)
               (pointer_declarator
                 declarator: (pointer_declarator
                   declarator: (field_identifier) @name))
               (array_declarator
                 declarator: (field_identifier) @name)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator
                     declarator: (field_identifier) @name)))]) @definition.field

; Macros. Include guards (FOO_H) are not.
((preproc_def
  name: (identifier) @name) @definition.macro
  (#not-match? @name "_(H|HH|HPP|HXX|H_INCLUDED|INCLUDED)_*$"))

(preproc_function_def
  name: (identifier) @name) @definition.macro

; File-scope variables and constants. A query cannot say "not inside a
; function", so the way down from the file is spelled out: up to three
; levels of nodes without a declarator (preprocessor conditionals; a
; function has one) may stand between the file and the declaration.
; The repetition below is that nesting, the same pattern at each level.
; A const-qualified declaration is a constant (a pointer to const is
; not). extern declarations and prototypes are left out, and so is a
; variable of a tagged struct defined in place (the struct is the
; definition).
((translation_unit
  [(declaration (storage_class_specifier)? @_storage (type_qualifier) @_const
     declarator: [(identifier) @name (array_declarator . (identifier) @name)
                  (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant
   (_ !declarator
     [(declaration (storage_class_specifier)? @_storage (type_qualifier) @_const
        declarator: [(identifier) @name (array_declarator . (identifier) @name)
                     (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant
      (_ !declarator
        [(declaration (storage_class_specifier)? @_storage (type_qualifier) @_const
           declarator: [(identifier) @name (array_declarator . (identifier) @name)
                        (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant
         (_ !declarator
           (declaration (storage_class_specifier)? @_storage (type_qualifier) @_const
              declarator: [(identifier) @name (array_declarator . (identifier) @name)
                           (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant)])])])
 (#eq? @_const "const")
 (#not-eq? @_storage "extern"))

((translation_unit
  [(declaration (storage_class_specifier)? @_storage
     type: [(_ !body) (struct_specifier !name) (union_specifier !name) (enum_specifier !name)]
     declarator: [(identifier) @name
                  (_ !parameters . (identifier) @name)
                  (_ !parameters . (_ !parameters . (identifier) @name))
                  (_ !parameters . (_ !parameters . (_ !parameters . (identifier) @name)))
                  (_ . (parenthesized_declarator . (_ . (identifier) @name)))]) @definition.variable
   (_ !declarator
     [(declaration (storage_class_specifier)? @_storage
        type: [(_ !body) (struct_specifier !name) (union_specifier !name) (enum_specifier !name)]
        declarator: [(identifier) @name
                     (_ !parameters . (identifier) @name)
                     (_ !parameters . (_ !parameters . (identifier) @name))
                     (_ !parameters . (_ !parameters . (_ !parameters . (identifier) @name)))
                     (_ . (parenthesized_declarator . (_ . (identifier) @name)))]) @definition.variable
      (_ !declarator
        [(declaration (storage_class_specifier)? @_storage
           type: [(_ !body) (struct_specifier !name) (union_specifier !name) (enum_specifier !name)]
           declarator: [(identifier) @name
                        (_ !parameters . (identifier) @name)
                        (_ !parameters . (_ !parameters . (identifier) @name))
                        (_ !parameters . (_ !parameters . (_ !parameters . (identifier) @name)))
                        (_ . (parenthesized_declarator . (_ . (identifier) @name)))]) @definition.variable
         (_ !declarator
           (declaration (storage_class_specifier)? @_storage
              type: [(_ !body) (struct_specifier !name) (union_specifier !name) (enum_specifier !name)]
              declarator: [(identifier) @name
                           (_ !parameters . (identifier) @name)
                           (_ !parameters . (_ !parameters . (identifier) @name))
                           (_ !parameters . (_ !parameters . (_ !parameters . (identifier) @name)))
                           (_ . (parenthesized_declarator . (_ . (identifier) @name)))]) @definition.variable)])])])
 (#not-eq? @_storage "extern"))

; ---- references ------------------------------------------------------

(call_expression
  function: (identifier) @reference.call)

(call_expression
  function: (field_expression
    field: (field_identifier) @reference.call))

(type_identifier) @reference.type

(field_expression
  field: (field_identifier) @reference.member)

(field_designator
  (field_identifier) @reference.member)

(identifier) @reference.name

; ---- imports ---------------------------------------------------------

(preproc_include
  path: (_) @import.module) @import
