; winnow's Scala query (Scala 2 and 3). Capture names follow the contract
; in doc.go.

(package_clause
  name: (package_identifier) @package)

; ---- definitions -----------------------------------------------------

(class_definition
  name: (identifier) @name) @definition.class

(trait_definition
  name: (identifier) @name) @definition.trait

; An object is a singleton class; its members qualify under its name,
; which is what callers write (Circle.apply), companion or not.
(object_definition
  name: (identifier) @name) @definition.class

(package_object
  name: (identifier) @name) @definition.module

(enum_definition
  name: (identifier) @name) @definition.enum

(simple_enum_case
  name: (identifier) @name) @definition.enum_member

(full_enum_case
  name: (identifier) @name) @definition.enum_member

; def this(…) is an auxiliary constructor, named after its class.
((class_definition
  name: (identifier) @name
  body: (_
    (function_definition
      name: (identifier) @_this) @definition.constructor))
  (#eq? @_this "this"))

; final val is a constant (SLS 4.1), wherever it is.
((val_definition
  (modifiers) @_mods
  pattern: (identifier) @name) @definition.constant
  (#match? @_mods "\\bfinal\\b"))

; A given with a body is an instance like an object. Anonymous givens
; have no name to index.
(given_definition
  name: (identifier) @name
  body: (with_template_body)) @definition.class

; Members of templates: defs are methods, vals and vars fields (one per
; name of val a, b or val (a, b)). Each template owner is listed with a
; wildcard body: a pattern rooted at template_body itself takes the
; Scala grammar ~0.4 s to compile. Every branch carries its own
; captures: tree-sitter drops matches of branches that are themselves
; captured alternations.
(class_definition
  body: (_
    [(function_definition name: (_) @name) @definition.method
     (function_declaration name: (_) @name) @definition.method
     (val_definition pattern: (identifier) @name) @definition.field
     (var_definition pattern: (identifier) @name) @definition.field
     (val_declaration name: (identifier) @name) @definition.field
     (var_declaration name: (identifier) @name) @definition.field
     (given_definition name: (identifier) @name) @definition.field
     (val_definition pattern: (identifiers (identifier) @name @definition.field))
     (var_definition pattern: (identifiers (identifier) @name @definition.field))
     (val_definition pattern: (tuple_pattern (identifier) @name @definition.field))
     (var_definition pattern: (tuple_pattern (identifier) @name @definition.field))]))

(object_definition
  body: (_
    [(function_definition name: (_) @name) @definition.method
     (function_declaration name: (_) @name) @definition.method
     (val_definition pattern: (identifier) @name) @definition.field
     (var_definition pattern: (identifier) @name) @definition.field
     (val_declaration name: (identifier) @name) @definition.field
     (var_declaration name: (identifier) @name) @definition.field
     (given_definition name: (identifier) @name) @definition.field
     (val_definition pattern: (identifiers (identifier) @name @definition.field))
     (var_definition pattern: (identifiers (identifier) @name @definition.field))
     (val_definition pattern: (tuple_pattern (identifier) @name @definition.field))
     (var_definition pattern: (tuple_pattern (identifier) @name @definition.field))]))

(trait_definition
  body: (_
    [(function_definition name: (_) @name) @definition.method
     (function_declaration name: (_) @name) @definition.method
     (val_definition pattern: (identifier) @name) @definition.field
     (var_definition pattern: (identifier) @name) @definition.field
     (val_declaration name: (identifier) @name) @definition.field
     (var_declaration name: (identifier) @name) @definition.field
     (given_definition name: (identifier) @name) @definition.field
     (val_definition pattern: (identifiers (identifier) @name @definition.field))
     (var_definition pattern: (identifiers (identifier) @name @definition.field))
     (val_definition pattern: (tuple_pattern (identifier) @name @definition.field))
     (var_definition pattern: (tuple_pattern (identifier) @name @definition.field))]))

(enum_definition
  body: (_
    [(function_definition name: (_) @name) @definition.method
     (function_declaration name: (_) @name) @definition.method
     (val_definition pattern: (identifier) @name) @definition.field
     (var_definition pattern: (identifier) @name) @definition.field
     (val_declaration name: (identifier) @name) @definition.field
     (var_declaration name: (identifier) @name) @definition.field
     (given_definition name: (identifier) @name) @definition.field
     (val_definition pattern: (identifiers (identifier) @name @definition.field))
     (var_definition pattern: (identifiers (identifier) @name @definition.field))
     (val_definition pattern: (tuple_pattern (identifier) @name @definition.field))
     (var_definition pattern: (tuple_pattern (identifier) @name @definition.field))]))

; given x: T with { … }
(given_definition
  body: (_
    [(function_definition name: (_) @name) @definition.method
     (function_declaration name: (_) @name) @definition.method
     (val_definition pattern: (identifier) @name) @definition.field
     (var_definition pattern: (identifier) @name) @definition.field
     (val_declaration name: (identifier) @name) @definition.field
     (var_declaration name: (identifier) @name) @definition.field
     (given_definition name: (identifier) @name) @definition.field
     (val_definition pattern: (identifiers (identifier) @name @definition.field))
     (var_definition pattern: (identifiers (identifier) @name @definition.field))
     (val_definition pattern: (tuple_pattern (identifier) @name @definition.field))
     (var_definition pattern: (tuple_pattern (identifier) @name @definition.field))]))

; new T { … }: an anonymous class.
(instance_expression
  (_
    [(function_definition name: (_) @name) @definition.method
     (function_declaration name: (_) @name) @definition.method
     (val_definition pattern: (identifier) @name) @definition.field
     (var_definition pattern: (identifier) @name) @definition.field
     (val_declaration name: (identifier) @name) @definition.field
     (var_declaration name: (identifier) @name) @definition.field
     (given_definition name: (identifier) @name) @definition.field
     (val_definition pattern: (identifiers (identifier) @name @definition.field))
     (var_definition pattern: (identifiers (identifier) @name @definition.field))
     (val_definition pattern: (tuple_pattern (identifier) @name @definition.field))
     (var_definition pattern: (tuple_pattern (identifier) @name @definition.field))]))

; A package object's defs are package-level functions, its vals fields.
(package_object
  body: (_
    [(function_definition name: (_) @name) @definition.function
     (function_declaration name: (_) @name) @definition.function
     (val_definition pattern: (identifier) @name) @definition.field
     (var_definition pattern: (identifier) @name) @definition.field]))

; Any other def: top-level or local.
(function_definition
  name: (_) @name) @definition.function

(function_declaration
  name: (_) @name) @definition.function

; extension (s: String) def shout …: the defs belong to the receiver type.
(extension_definition
  parameters: (parameters
    (parameter
      type: [(type_identifier) @name
             (generic_type type: (type_identifier) @name)]))) @scope

(type_definition
  name: (type_identifier) @name) @definition.type

; A given alias is a value (a field in a template, listed above).
(given_definition
  name: (identifier) @name) @definition.variable

; Other vals and vars are variables at the top level and fields in
; templates (above). Locals inside blocks are not definitions.
(compilation_unit
  [(val_definition pattern: (identifier) @name) @definition.variable
   (var_definition pattern: (identifier) @name) @definition.variable
   (val_definition pattern: (identifiers (identifier) @name @definition.variable))
   (var_definition pattern: (identifiers (identifier) @name @definition.variable))
   (val_definition pattern: (tuple_pattern (identifier) @name @definition.variable))
   (var_definition pattern: (tuple_pattern (identifier) @name @definition.variable))])

; class C(val a: Int): val/var parameters, and every parameter of a case
; class, are fields.
(class_definition
  "case"
  class_parameters: (class_parameters
    (class_parameter
      name: (identifier) @name) @definition.field))

(class_parameter
  ["val" "var"]
  name: (identifier) @name) @definition.field

; ---- references ------------------------------------------------------

((call_expression
  function: [(identifier) @reference.call
             (field_expression field: (identifier) @reference.call)
             (generic_function
               function: [(identifier) @reference.call
                          (field_expression field: (identifier) @reference.call)])])
  (#not-any-of? @reference.call "this" "super"))

; new C(…)
(instance_expression
  [(type_identifier) @reference.call
   (generic_type type: (type_identifier) @reference.call)])

; a max b
(infix_expression
  operator: (identifier) @reference.call)

(type_identifier) @reference.type

(field_expression
  field: (identifier) @reference.member)

((identifier) @reference.name
  (#not-any-of? @reference.name "this" "super"))

; ---- imports ---------------------------------------------------------

; The path of an import (a.b.c) is a run of identifiers and dots, not one
; node: every segment is captured as @import.module, in order.

; import a.b.c
(import_declaration
  .
  ((identifier) @import.module ".")*
  .
  (identifier) @import.module
  .) @import

; import a.b._  /  import a.b.*
(import_declaration
  .
  ((identifier) @import.module ".")+
  (namespace_wildcard) @import.name) @import

; import a.b.C as D  (Scala 3)
(import_declaration
  .
  ((identifier) @import.module ".")+
  (as_renamed_identifier
    name: (identifier) @import.name
    alias: (_) @import.alias)) @import

; import a.b.{C, D => E, _}
(import_declaration
  .
  ((identifier) @import.module ".")+
  (namespace_selectors
    [(identifier) @import.name
     (namespace_wildcard) @import.name
     (arrow_renamed_identifier
       name: (identifier) @import.name
       alias: (_) @import.alias)
     (as_renamed_identifier
       name: (identifier) @import.name
       alias: (_) @import.alias)])) @import
