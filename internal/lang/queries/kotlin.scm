; winnow's Kotlin query. Capture names follow the contract in doc.go.

(package_header
  (qualified_identifier) @package)

; ---- definitions -----------------------------------------------------

(class_declaration
  "interface"
  name: (identifier) @name) @definition.interface

((class_declaration
  (modifiers (class_modifier) @_mod)
  name: (identifier) @name) @definition.enum
  (#eq? @_mod "enum"))

(class_declaration
  name: (identifier) @name) @definition.class

; object Foo { … } is a singleton class. Companion objects are left out
; on purpose: their members qualify under the class, as callers write
; them (Outer.create()).
(object_declaration
  name: (identifier) @name) @definition.class

(enum_entry
  (identifier) @name) @definition.enum_member

; constructor(…) inside a class body is named after its class.
(class_declaration
  name: (identifier) @name
  (class_body
    (secondary_constructor) @definition.constructor))

; A top-level extension function or property belongs to its receiver
; type: fun String.shout() is String.shout.
(source_file
  (statement
    (function_declaration
      [(user_type) @parent
       (nullable_type (user_type) @parent)]
      .
      name: (identifier) @name) @definition.method))

; Functions in class, object and enum bodies (and anonymous objects and
; enum entries) are methods; the rest are top-level or local functions.
(class_body
  (function_declaration
    name: (identifier) @name) @definition.method)

(enum_class_body
  (function_declaration
    name: (identifier) @name) @definition.method)

(function_declaration
  name: (identifier) @name) @definition.function

(type_alias
  type: (identifier) @name) @definition.type

(source_file
  (statement
    (property_declaration
      [(user_type) @parent
       (nullable_type (user_type) @parent)]
      .
      (variable_declaration
        (identifier) @name)) @definition.property))

((source_file
  (statement
    (property_declaration
      (modifiers (property_modifier) @_mod)
      (variable_declaration
        (identifier) @name)) @definition.constant))
  (#eq? @_mod "const"))

(source_file
  (statement
    (property_declaration
      (variable_declaration
        (identifier) @name)) @definition.variable))

; val (a, b) = pair: one variable per component.
(source_file
  (statement
    (property_declaration
      (multi_variable_declaration
        (variable_declaration
          (identifier) @name) @definition.variable))))

((class_body
  (property_declaration
    (modifiers (property_modifier) @_mod)
    (variable_declaration
      (identifier) @name)) @definition.constant)
  (#eq? @_mod "const"))

(class_body
  (property_declaration
    (variable_declaration
      (identifier) @name)) @definition.property)

(enum_class_body
  (property_declaration
    (variable_declaration
      (identifier) @name)) @definition.property)

; class C(val a: Int, var b: String): val/var parameters are properties.
(class_parameter
  ["val" "var"]
  (identifier) @name) @definition.property

; ---- references ------------------------------------------------------

(call_expression
  [(identifier) @reference.call
   (navigation_expression
     (identifier) @reference.call .)])

; a to b: an infix call of to.
(infix_expression
  .
  (_)
  .
  (identifier) @reference.call)

(user_type
  (identifier) @reference.type)

(navigation_expression
  (_)
  (identifier) @reference.member .)

(identifier) @reference.name

; ---- imports ---------------------------------------------------------

; import a.b.C  /  import a.b.C as D: the module is the whole path (the
; grammar does not split off the last name). The anchor skips the
; anonymous "*", so the predicate keeps wildcards to their own pattern.
((import
  (qualified_identifier) @import.module
  .) @import
  (#not-match? @import "[*]"))

(import
  (qualified_identifier) @import.module
  "as"
  (identifier) @import.alias) @import

; import a.b.*
(import
  (qualified_identifier) @import.module
  "*" @import.name) @import
