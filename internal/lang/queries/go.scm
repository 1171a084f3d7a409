; winnow's Go query. Capture names follow the contract in doc.go.

(package_clause (package_identifier) @package)

; ---- definitions -----------------------------------------------------

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @parent
             (pointer_type (type_identifier) @parent)
             (generic_type type: (type_identifier) @parent)
             (pointer_type (generic_type type: (type_identifier) @parent))]))
  name: (field_identifier) @name) @definition.method

(type_spec
  name: (type_identifier) @name
  type: (struct_type)) @definition.struct

(type_spec
  name: (type_identifier) @name
  type: (interface_type)) @definition.interface

(type_spec
  name: (type_identifier) @name) @definition.type

(type_alias
  name: (type_identifier) @name) @definition.type

(source_file
  (const_declaration
    (const_spec name: (identifier) @name) @definition.constant))

(source_file
  (var_declaration
    (var_spec name: (identifier) @name) @definition.variable))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec name: (identifier) @name) @definition.variable)))

; Fields of named struct types (not of anonymous structs in function
; bodies, such as test tables).
(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration
        name: (field_identifier) @name) @definition.field)))

(interface_type
  (method_elem
    name: (field_identifier) @name) @definition.method)

; ---- references ------------------------------------------------------

(call_expression
  function: (identifier) @reference.call)

(call_expression
  function: (selector_expression
    field: (field_identifier) @reference.call))

(type_identifier) @reference.type

(selector_expression
  field: (field_identifier) @reference.member)

(identifier) @reference.name

; ---- imports ---------------------------------------------------------

(import_spec
  name: (package_identifier) @import.alias
  path: (_) @import.module) @import

(import_spec
  path: (_) @import.module) @import
