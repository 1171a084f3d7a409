; winnow's Lua query. Capture names follow the contract in doc.go.

; ---- definitions -----------------------------------------------------

; function M.f() and function M:m(): the table is the container, as
; callers write M.f(…) and obj:m(…).
(function_declaration
  name: (dot_index_expression
    table: (_) @parent
    field: (identifier) @name)) @definition.function

(function_declaration
  name: (method_index_expression
    table: (_) @parent
    method: (identifier) @name)) @definition.method

; function f() and local function f().
(function_declaration
  name: (identifier) @name) @definition.function

; M.f = function(…) … end and local f = function(…) … end at the top of
; the file. The function node is the definition; its assignment is a
; wrapper, so span and signature start at the name.
(chunk
  [(assignment_statement
     (variable_list
       .
       name: (dot_index_expression
         table: (_) @parent
         field: (identifier) @name))
     (expression_list
       .
       value: (function_definition) @definition.function))
   (variable_declaration
     (assignment_statement
       (variable_list
         .
         name: (identifier) @name)
       (expression_list
         .
         value: (function_definition) @definition.function)))
   (assignment_statement
     (variable_list
       .
       name: (identifier) @name)
     (expression_list
       .
       value: (function_definition) @definition.function))])

; Functions in a table literal: { new = function(…) … end }.
(field
  name: (identifier) @name
  value: (function_definition) @definition.function)

; M.x = … at the top of the file: a field of the table M, or a constant
; when its name is upper case.
((chunk
  (assignment_statement
    (variable_list
      .
      name: (dot_index_expression
        table: (_) @parent
        field: (identifier) @name))
    (expression_list
      .
      value: (_) @_value)) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]+$")
  (#not-match? @_value "^function"))

((chunk
  (assignment_statement
    (variable_list
      .
      name: (dot_index_expression
        table: (_) @parent
        field: (identifier) @name))
    (expression_list
      .
      value: (_) @_value)) @definition.field)
  (#not-match? @_value "^function"))

; Variables of the file: local x = … and globals. local x <const> and
; upper-case names are constants (one letter is not enough: local M = {}
; is the module table). local m = require "m" is an import,
; not a variable.
((chunk
  (variable_declaration
    (assignment_statement
      (variable_list
        .
        name: (identifier) @name
        .
        attribute: (attribute (identifier) @_attr))) @definition.constant))
  (#any-of? @_attr "const" "close"))

((chunk
  [(variable_declaration
     (assignment_statement
       (variable_list
         .
         name: (identifier) @name)
       (expression_list
         .
         value: (_) @_value)) @definition.constant)
   (assignment_statement
     (variable_list
       .
       name: (identifier) @name)
     (expression_list
       .
       value: (_) @_value)) @definition.constant])
  (#match? @name "^_*[A-Z][A-Z0-9_]+$")
  (#not-match? @_value "^(function|require)\\b"))

((chunk
  [(variable_declaration
     (assignment_statement
       (variable_list
         .
         name: (identifier) @name)
       (expression_list
         .
         value: (_) @_value)) @definition.variable)
   (assignment_statement
     (variable_list
       .
       name: (identifier) @name)
     (expression_list
       .
       value: (_) @_value)) @definition.variable])
  (#not-match? @_value "^(function|require)\\b"))

(chunk
  (variable_declaration
    (variable_list
      .
      name: (identifier) @name) @definition.variable))

; Fields of the tables a file defines or returns at its top:
; local M = { x = 1 } and return { x = 1 }.
((chunk
  [(variable_declaration
     (assignment_statement
       (expression_list
         (table_constructor
           (field
             name: (identifier) @name
             value: (_) @_value) @definition.field))))
   (assignment_statement
     (expression_list
       (table_constructor
         (field
           name: (identifier) @name
           value: (_) @_value) @definition.field)))
   (return_statement
     (expression_list
       (table_constructor
         (field
           name: (identifier) @name
           value: (_) @_value) @definition.field)))])
  (#not-match? @_value "^function"))

; ---- references ------------------------------------------------------

(function_call
  name: (identifier) @reference.call)

(function_call
  name: (dot_index_expression
    field: (identifier) @reference.call))

(function_call
  name: (method_index_expression
    method: (identifier) @reference.call))

(dot_index_expression
  field: (identifier) @reference.member)

(method_index_expression
  method: (identifier) @reference.member)

; The words of <const> and <close> attributes are not uses of a name
; (queries cannot test a parent, so the words are left out everywhere).
((identifier) @reference.name
  (#not-any-of? @reference.name "const" "close"))

; ---- imports ---------------------------------------------------------

; local json = require("cjson"): the local names the module.
((variable_declaration
  (assignment_statement
    (variable_list
      .
      name: (identifier) @import.alias .)
    (expression_list
      .
      value: (function_call
        name: (identifier) @_require
        arguments: (arguments
          .
          (string
            content: (string_content) @import.module))) @import)))
  (#eq? @_require "require"))

((function_call
  name: (identifier) @_require
  arguments: (arguments
    .
    (string
      content: (string_content) @import.module))) @import
  (#eq? @_require "require"))
