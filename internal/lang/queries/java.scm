; winnow's Java query. Capture names follow the contract in doc.go.

(package_declaration [(identifier) (scoped_identifier)] @package)

; ---- definitions -----------------------------------------------------

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

; @interface Foo { … } declares an annotation type.
(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(enum_constant
  name: (identifier) @name) @definition.enum_member

(method_declaration
  name: (identifier) @name) @definition.method

(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.constructor

(compact_constructor_declaration
  name: (identifier) @name) @definition.constructor

; A record's components are its accessor-backed properties.
(record_declaration
  parameters: (formal_parameters
    (formal_parameter
      name: (identifier) @name) @definition.property))

; Fields: one symbol per declarator. static final fields and interface
; fields (implicitly static final) are constants; the constant pattern
; comes first and wins on the same node.
((field_declaration
  (modifiers) @_mods
  declarator: (variable_declarator
    name: (identifier) @name) @definition.constant)
  (#match? @_mods "\\bstatic\\b")
  (#match? @_mods "\\bfinal\\b"))

(field_declaration
  declarator: (variable_declarator
    name: (identifier) @name) @definition.field)

(constant_declaration
  declarator: (variable_declarator
    name: (identifier) @name) @definition.constant)

; module-info.java
(module_declaration
  name: [(identifier) (scoped_identifier)] @name) @definition.module

; ---- references ------------------------------------------------------

(method_invocation
  name: (identifier) @reference.call)

(object_creation_expression
  type: [(type_identifier) @reference.call
         (generic_type (type_identifier) @reference.call)
         (scoped_type_identifier (type_identifier) @reference.call .)
         (generic_type (scoped_type_identifier (type_identifier) @reference.call .))])

; Foo::bar, obj::bar
(method_reference
  (_)
  (identifier) @reference.call .)

(marker_annotation
  name: [(identifier) @reference.type
         (scoped_identifier name: (identifier) @reference.type)])

(annotation
  name: [(identifier) @reference.type
         (scoped_identifier name: (identifier) @reference.type)])

((type_identifier) @reference.type
  (#not-eq? @reference.type "var"))

(field_access
  field: (identifier) @reference.member)

(identifier) @reference.name

; ---- imports ---------------------------------------------------------

; import a.b.C;  import static a.b.C.m;
(import_declaration
  (scoped_identifier
    scope: (_) @import.module
    name: (identifier) @import.name) .) @import

; import a.b.*;  import static a.b.C.*;
(import_declaration
  [(identifier) (scoped_identifier)] @import.module
  (asterisk) @import.name) @import

; import C;  (a class in the unnamed package)
(import_declaration
  (identifier) @import.module .) @import

; requires a.b;  in module-info.java
(requires_module_directive
  module: [(identifier) (scoped_identifier)] @import.module) @import
