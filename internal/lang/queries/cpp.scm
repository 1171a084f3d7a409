; winnow's C++ query. Capture names follow the contract in doc.go.
;
; Headers (.h) are read as C++, so this query also serves C headers:
; typedef'd structs, prototypes, extern declarations, macros.

; ---- definitions -----------------------------------------------------

(namespace_definition
  name: (_) @name) @definition.namespace

; typedef struct [tag] {…} name; is the struct called name: that is what
; callers write. These come before the tagged patterns below and win on
; the same node; the typedef wraps the struct (see cpp.go).
(type_definition
  type: (struct_specifier body: (_)) @definition.struct
  declarator: (type_identifier) @name)

(type_definition
  type: (class_specifier body: (_)) @definition.class
  declarator: (type_identifier) @name)

(type_definition
  type: (union_specifier body: (_)) @definition.union
  declarator: (type_identifier) @name)

(type_definition
  type: (enum_specifier body: (_)) @definition.enum
  declarator: (type_identifier) @name)

; class A::B {…} defines B inside A.
(class_specifier
  name: (qualified_identifier scope: (_) @parent name: (type_identifier) @name)
  body: (_)) @definition.class

(struct_specifier
  name: (qualified_identifier scope: (_) @parent name: (type_identifier) @name)
  body: (_)) @definition.struct

(class_specifier
  name: (_) @name
  body: (_)) @definition.class

(struct_specifier
  name: (_) @name
  body: (_)) @definition.struct

(union_specifier
  name: (_) @name
  body: (_)) @definition.union

(enum_specifier
  name: (_) @name
  body: (_)) @definition.enum

(enumerator
  name: (identifier) @name) @definition.enum_member

(alias_declaration
  name: (type_identifier) @name) @definition.type

(concept_definition
  name: (identifier) @name) @definition.type

; Any other typedef: of a scalar, a pointer, an array, a function
; pointer, or a type declared elsewhere.
(type_definition
  type: (_ !body)
  declarator: [(type_identifier) @name
               (_ . (type_identifier) @name)
               (function_declarator
                 . (parenthesized_declarator (pointer_declarator . (type_identifier) @name)))]) @definition.type

; Constructors: in the class body, a typeless function named after the
; class (a typeless macro call there is not one); out of line, a
; typeless A::A(…) or A<T>::A(…).
((_
  name: (type_identifier) @_class
  body: (field_declaration_list
    [(function_definition !type
       declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor
     (declaration !type
       declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor
     (template_declaration
       [(function_definition !type
          declarator: (function_declarator declarator: (identifier) @name))
        (declaration !type
          declarator: (function_declarator declarator: (identifier) @name))] @definition.constructor)]))
 (#eq? @_class @name))

(function_definition !type
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (_) @parent
      name: (identifier) @name))) @definition.constructor

; Functions and methods, defined anywhere (a function cannot be defined
; inside another), returning values, pointers or references. A
; function directly inside a class is a method.
(function_definition
  declarator: [(function_declarator
                 declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
               (_ (function_declarator
                    declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
               (_ (_ (function_declarator
                       declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))]) @definition.function

; Out of line, A::f and ns::A::f give the explicit parent A.
(function_definition
  declarator: [(function_declarator
                 declarator: [(qualified_identifier
                               scope: (_) @parent
                               name: [(identifier) (destructor_name) (operator_name)] @name)
                              (qualified_identifier
                               name: (qualified_identifier
                                 scope: (_) @parent
                                 name: [(identifier) (destructor_name) (operator_name)] @name))])
               (_ (function_declarator
                    declarator: [(qualified_identifier
                                  scope: (_) @parent
                                  name: [(identifier) (destructor_name) (operator_name)] @name)
                                 (qualified_identifier
                                  name: (qualified_identifier
                                    scope: (_) @parent
                                    name: [(identifier) (destructor_name) (operator_name)] @name))]))]) @definition.function

; Member function declarations, and destructors and member templates
; declared in the class body.
(field_declaration
  declarator: [(function_declarator declarator: [(field_identifier) (operator_name)] @name)
               (_ (function_declarator declarator: [(field_identifier) (operator_name)] @name))]) @definition.function

(field_declaration_list
  (declaration
    declarator: (function_declarator declarator: (destructor_name) @name)) @definition.function)

(field_declaration_list
  (template_declaration
    (declaration
      type: (_)
      declarator: [(function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name)
                   (_ (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))]) @definition.function))

; Fields. A field whose type is a tagged type defined in place is left
; out: the type is the definition (a field would wrap and rename it).
(field_declaration
  type: [(_ !body) (class_specifier !name) (struct_specifier !name) (union_specifier !name) (enum_specifier !name)]
  declarator: [(field_identifier) @name
               (_ !parameters . (field_identifier) @name)
               (_ !parameters . (_ !parameters . (field_identifier) @name))
               (_ . (parenthesized_declarator . (_ . (field_identifier) @name)))]) @definition.field

; Macros. Include guards (FOO_H) are not.
((preproc_def
  name: (identifier) @name) @definition.macro
  (#not-match? @name "_(H|HH|HPP|HXX|H_INCLUDED|INCLUDED)_*$"))

(preproc_function_def
  name: (identifier) @name) @definition.macro

; Namespace-scope prototypes, variables and constants. A query cannot
; say "not inside a function" (and inside one, `std::lock_guard<M>
; lock(mu);` parses as a prototype), so the way down from the file or a
; namespace body is spelled out: up to two levels of nodes without a
; declarator (preprocessor conditionals, extern "C", template<…>; a
; function has one) may stand between them and the declaration. The
; repetition below is that nesting, the same patterns at each level.
; A const or constexpr declaration is a constant (a pointer to const is
; not); it comes first and wins over the variable on the same node.
((translation_unit
  [(declaration (type_qualifier) @_const
     declarator: [(identifier) @name (array_declarator . (identifier) @name)
                  (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant
   (_ !declarator
     [(declaration (type_qualifier) @_const
        declarator: [(identifier) @name (array_declarator . (identifier) @name)
                     (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant
      (_ !declarator
        (declaration (type_qualifier) @_const
           declarator: [(identifier) @name (array_declarator . (identifier) @name)
                        (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant)])])
 (#any-of? @_const "const" "constexpr" "constinit"))

((declaration_list
  [(declaration (type_qualifier) @_const
     declarator: [(identifier) @name (array_declarator . (identifier) @name)
                  (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant
   (_ !declarator
     (declaration (type_qualifier) @_const
        declarator: [(identifier) @name (array_declarator . (identifier) @name)
                     (init_declarator . [(identifier) @name (array_declarator . (identifier) @name)])]) @definition.constant)])
 (#any-of? @_const "const" "constexpr" "constinit"))

(translation_unit
  [(declaration type: (_) declarator: [(function_declarator declarator: [(identifier) (operator_name)] @name)
                                             (_ (function_declarator declarator: [(identifier) (operator_name)] @name))]) @definition.function
   (declaration type: (_ !body) declarator: [(identifier) @name (_ !parameters . (identifier) @name) (_ !parameters . (_ !parameters . (identifier) @name))]) @definition.variable
   (_ !declarator
     [(declaration type: (_) declarator: [(function_declarator declarator: [(identifier) (operator_name)] @name)
                                                (_ (function_declarator declarator: [(identifier) (operator_name)] @name))]) @definition.function
      (declaration type: (_ !body) declarator: [(identifier) @name (_ !parameters . (identifier) @name) (_ !parameters . (_ !parameters . (identifier) @name))]) @definition.variable
      (_ !declarator
        [(declaration type: (_) declarator: [(function_declarator declarator: [(identifier) (operator_name)] @name)
                                                   (_ (function_declarator declarator: [(identifier) (operator_name)] @name))]) @definition.function
         (declaration type: (_ !body) declarator: [(identifier) @name (_ !parameters . (identifier) @name) (_ !parameters . (_ !parameters . (identifier) @name))]) @definition.variable])])])

(declaration_list
  [(declaration type: (_) declarator: [(function_declarator declarator: [(identifier) (operator_name)] @name)
                                             (_ (function_declarator declarator: [(identifier) (operator_name)] @name))]) @definition.function
   (declaration type: (_ !body) declarator: [(identifier) @name (_ !parameters . (identifier) @name) (_ !parameters . (_ !parameters . (identifier) @name))]) @definition.variable
   (_ !declarator
     [(declaration type: (_) declarator: [(function_declarator declarator: [(identifier) (operator_name)] @name)
                                                (_ (function_declarator declarator: [(identifier) (operator_name)] @name))]) @definition.function
      (declaration type: (_ !body) declarator: [(identifier) @name (_ !parameters . (identifier) @name) (_ !parameters . (_ !parameters . (identifier) @name))]) @definition.variable])])


; ---- references ------------------------------------------------------

(call_expression
  function: [(identifier) @reference.call
             (qualified_identifier name: (identifier) @reference.call)
             (qualified_identifier name: (qualified_identifier name: (identifier) @reference.call))
             (template_function name: (identifier) @reference.call)
             (qualified_identifier name: (template_function name: (identifier) @reference.call))
             (field_expression field: (field_identifier) @reference.call)
             (field_expression field: (template_method name: (field_identifier) @reference.call))])

(type_identifier) @reference.type

(field_expression
  field: (field_identifier) @reference.member)

(field_initializer
  (field_identifier) @reference.member)

(field_designator
  (field_identifier) @reference.member)

(namespace_identifier) @reference.name

(identifier) @reference.name

; ---- imports ---------------------------------------------------------

(preproc_include
  path: (_) @import.module) @import

; using namespace a::b;
(using_declaration
  "namespace"
  [(identifier) (qualified_identifier)] @import.module) @import

; using a::b::name;
((using_declaration
  (qualified_identifier
    scope: (_) @import.module
    name: (_) @import.name)) @import
 (#not-match? @import "^using\\s+namespace"))

; namespace fs = std::filesystem;
(namespace_alias_definition
  name: (namespace_identifier) @import.alias
  .
  [(namespace_identifier) (nested_namespace_specifier)] @import.module) @import
