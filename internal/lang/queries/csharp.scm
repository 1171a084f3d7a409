; winnow's C# query. Capture names follow the contract in doc.go.

; A file-scoped namespace (namespace A.B;) holds the rest of the file
; without enclosing it, so it is the file's package; block namespaces
; are definitions that qualify what they enclose.
(file_scoped_namespace_declaration
  name: (_) @package)

; ---- definitions -----------------------------------------------------

(namespace_declaration
  name: (_) @name) @definition.namespace

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  "struct"
  name: (identifier) @name) @definition.struct

(record_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(enum_member_declaration
  name: (identifier) @name) @definition.enum_member

(delegate_declaration
  name: (identifier) @name) @definition.type

(method_declaration
  name: (identifier) @name) @definition.method

; Local functions nest under the member that declares them.
(local_function_statement
  name: (identifier) @name) @definition.function

(constructor_declaration
  name: (identifier) @name) @definition.constructor

; operator +(…): the operator token is the name.
(operator_declaration
  operator: _ @name) @definition.method

(property_declaration
  name: (identifier) @name) @definition.property

; An indexer is the property called "this".
(indexer_declaration
  "this" @name) @definition.property

(event_declaration
  name: (identifier) @name) @definition.property

; record R(int A, int B): the positional parameters are properties.
(record_declaration
  (parameter_list
    (parameter
      name: (identifier) @name) @definition.property))

; Fields: one symbol per declarator; const fields are constants.
((field_declaration
  (modifier) @_mod
  (variable_declaration
    (variable_declarator
      name: (identifier) @name) @definition.constant))
  (#eq? @_mod "const"))

(field_declaration
  (variable_declaration
    (variable_declarator
      name: (identifier) @name) @definition.field))

(event_field_declaration
  (variable_declaration
    (variable_declarator
      name: (identifier) @name) @definition.field))

; ---- references ------------------------------------------------------

(invocation_expression
  function: [(identifier) @reference.call
             (generic_name (identifier) @reference.call)
             (member_access_expression
               name: [(identifier) @reference.call
                      (generic_name (identifier) @reference.call)])
             (conditional_access_expression
               (member_binding_expression
                 name: [(identifier) @reference.call
                        (generic_name (identifier) @reference.call)]))])

(object_creation_expression
  type: [(identifier) @reference.call
         (generic_name (identifier) @reference.call)
         (qualified_name
           name: [(identifier) @reference.call
                  (generic_name (identifier) @reference.call)])])

; Types have no node kind of their own: a name is a type by position.
(_
  type: [(identifier) @reference.type
         (generic_name (identifier) @reference.type)
         (qualified_name
           name: [(identifier) @reference.type
                  (generic_name (identifier) @reference.type)])])

(_
  returns: [(identifier) @reference.type
            (generic_name (identifier) @reference.type)
            (qualified_name
              name: [(identifier) @reference.type
                     (generic_name (identifier) @reference.type)])])

(base_list
  [(identifier) @reference.type
   (generic_name (identifier) @reference.type)
   (qualified_name
     name: [(identifier) @reference.type
            (generic_name (identifier) @reference.type)])])

(type_argument_list
  [(identifier) @reference.type
   (generic_name (identifier) @reference.type)
   (qualified_name
     name: [(identifier) @reference.type
            (generic_name (identifier) @reference.type)])])

(explicit_interface_specifier
  [(identifier) @reference.type
   (generic_name (identifier) @reference.type)
   (qualified_name
     name: [(identifier) @reference.type
            (generic_name (identifier) @reference.type)])])

(attribute
  name: [(identifier) @reference.type
         (qualified_name name: (identifier) @reference.type)])

(member_access_expression
  name: [(identifier) @reference.member
         (generic_name (identifier) @reference.member)])

(member_binding_expression
  name: (identifier) @reference.member)

(identifier) @reference.name

; ---- imports ---------------------------------------------------------

; using A.B;  using static A.B.C;  global using A.B;
(using_directive
  !name
  [(identifier) (qualified_name)] @import.module) @import

; using X = A.B;
(using_directive
  name: (identifier) @import.alias
  [(identifier) (qualified_name) (generic_name)] @import.module) @import
