; winnow's Python query. Capture names follow the contract in doc.go.

; ---- definitions -----------------------------------------------------

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

; Module-level assignments: UPPER_CASE names are constants, others
; variables. The constant pattern comes first and wins on the same node.
((module
  (expression_statement
    (assignment left: (identifier) @name) @definition.constant))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.variable))

; Class attributes.
(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))

; ---- references ------------------------------------------------------

(call
  function: (identifier) @reference.call)

(call
  function: (attribute
    attribute: (identifier) @reference.call))

(class_definition
  superclasses: (argument_list
    [(identifier) @reference.type
     (attribute attribute: (identifier) @reference.type)]))

(type (identifier) @reference.type)
(type (attribute attribute: (identifier) @reference.type))
(type (generic_type (identifier) @reference.type))

(decorator (identifier) @reference.call)
(decorator (attribute attribute: (identifier) @reference.call))

(attribute
  attribute: (identifier) @reference.member)

(identifier) @reference.name

; ---- imports ---------------------------------------------------------

(import_statement
  name: (dotted_name) @import.module) @import

(import_statement
  name: (aliased_import
    name: (dotted_name) @import.module
    alias: (identifier) @import.alias)) @import

(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @import.name) @import

(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias)) @import

(import_from_statement
  module_name: (_) @import.module
  (wildcard_import) @import.name) @import
