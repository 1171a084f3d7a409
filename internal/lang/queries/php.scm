; winnow's PHP query. Capture names follow the contract in doc.go.
; Names are bare, as callers write them after a use statement
; (User::find, not App\Models\User::find); the namespace is the file's
; package.

(namespace_definition
  name: (namespace_name) @package)

; ---- definitions -----------------------------------------------------

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

(enum_case
  name: (name) @name) @definition.enum_member

(function_definition
  name: (name) @name) @definition.function

((method_declaration
  name: (name) @name) @definition.constructor
  (#match? @name "^(?i)__construct$"))

(method_declaration
  name: (name) @name) @definition.method

(property_declaration
  (property_element
    name: (variable_name (name) @name)) @definition.field)

; Constructor promotion, __construct(private int $x), declares fields of
; the class.
((_
  name: (name) @parent
  body: (declaration_list
    (method_declaration
      name: (name) @_constructor
      parameters: (formal_parameters
        (property_promotion_parameter
          name: (variable_name (name) @name)) @definition.field))))
  (#match? @_constructor "^(?i)__construct$"))

; Class, interface and enum constants, and const at file level.
(const_declaration
  (const_element . (name) @name) @definition.constant)

; define('NAME', value)
((function_call_expression
  function: (name) @_define
  arguments: (arguments
    .
    (argument [(string (string_content) @name) (encapsed_string (string_content) @name)]))) @definition.constant
  (#match? @_define "^(?i)define$"))

; Variables assigned at file level.
(program
  (expression_statement
    (assignment_expression
      left: (variable_name (name) @name)) @definition.variable))

; ---- references ------------------------------------------------------

(function_call_expression
  function: (name) @reference.call)

(function_call_expression
  function: (qualified_name (name) @reference.call))

(member_call_expression
  name: (name) @reference.call)

(nullsafe_member_call_expression
  name: (name) @reference.call)

(scoped_call_expression
  name: (name) @reference.call)

((object_creation_expression (name) @reference.call)
  (#not-any-of? @reference.call "static" "self" "parent"))

(object_creation_expression
  (qualified_name (name) @reference.call))

; Class names: in types, extends and implements, trait uses, static
; access, instanceof and attributes.
((named_type (name) @reference.type)
  (#not-any-of? @reference.type "self" "static" "parent"))
(named_type (qualified_name (name) @reference.type))

(base_clause (name) @reference.type)
(base_clause (qualified_name (name) @reference.type))

(class_interface_clause (name) @reference.type)
(class_interface_clause (qualified_name (name) @reference.type))

(use_declaration (name) @reference.type)
(use_declaration (qualified_name (name) @reference.type))

(attribute (name) @reference.type)
(attribute (qualified_name (name) @reference.type))

(scoped_call_expression
  scope: [(name) (qualified_name (name))] @reference.type)

(scoped_property_access_expression
  scope: [(name) (qualified_name (name))] @reference.type)

(class_constant_access_expression
  .
  [(name) @reference.type
   (qualified_name (name) @reference.type)])

((binary_expression
  operator: "instanceof"
  right: (name) @reference.type)
  (#not-any-of? @reference.type "self" "static" "parent"))

(binary_expression
  operator: "instanceof"
  right: (qualified_name (name) @reference.type))

; Members: $obj->prop, $obj?->prop, Type::$static, Type::CONSTANT.
(member_access_expression
  name: (name) @reference.member)

(nullsafe_member_access_expression
  name: (name) @reference.member)

(scoped_property_access_expression
  name: (variable_name (name) @reference.member))

(class_constant_access_expression
  (name) @reference.member
  .)

; Any other name: constants and $variables ($this and the relative
; class names are not references).
((name) @reference.name
  (#not-any-of? @reference.name "this" "self" "static" "parent"))

; ---- imports ---------------------------------------------------------

; use A\B\C; use A\B\C as D; use function A\f; use const A\X;
(namespace_use_declaration
  (namespace_use_clause
    (qualified_name
      prefix: (namespace_name) @import.module
      (name) @import.name))) @import

(namespace_use_declaration
  (namespace_use_clause
    (qualified_name
      prefix: (namespace_name) @import.module
      (name) @import.name)
    alias: (name) @import.alias)) @import

; use Name; use Name as Alias;
(namespace_use_declaration
  (namespace_use_clause
    .
    (name) @import.name)) @import

(namespace_use_declaration
  (namespace_use_clause
    .
    (name) @import.name
    alias: (name) @import.alias)) @import

; use A\B\{C, D as E};
(namespace_use_declaration
  (namespace_name) @import.module
  body: (namespace_use_group
    (namespace_use_clause
      .
      [(name) (qualified_name)] @import.name))) @import

(namespace_use_declaration
  (namespace_name) @import.module
  body: (namespace_use_group
    (namespace_use_clause
      .
      [(name) (qualified_name)] @import.name
      alias: (name) @import.alias))) @import

; require, require_once, include, include_once of a literal path, or of
; __DIR__ . '/path'.
([(require_expression
    [(string (string_content) @import.module)
     (encapsed_string (string_content) @import.module)
     (binary_expression
       right: [(string (string_content) @import.module)
               (encapsed_string (string_content) @import.module)])])
  (require_once_expression
    [(string (string_content) @import.module)
     (encapsed_string (string_content) @import.module)
     (binary_expression
       right: [(string (string_content) @import.module)
               (encapsed_string (string_content) @import.module)])])
  (include_expression
    [(string (string_content) @import.module)
     (encapsed_string (string_content) @import.module)
     (binary_expression
       right: [(string (string_content) @import.module)
               (encapsed_string (string_content) @import.module)])])
  (include_once_expression
    [(string (string_content) @import.module)
     (encapsed_string (string_content) @import.module)
     (binary_expression
       right: [(string (string_content) @import.module)
               (encapsed_string (string_content) @import.module)])])] @import)
