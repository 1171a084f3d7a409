; winnow's JavaScript query (also .jsx). Capture names follow the
; contract in doc.go. Module-level means a direct child of the program,
; or of an export statement.

; ---- definitions -----------------------------------------------------

(class_declaration
  name: (identifier) @name) @definition.class

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

; export default class {…} and export default function () {…} are
; exported under the name "default".
(export_statement
  "default" @name
  value: (class !name) @definition.class)

(export_statement
  "default" @name
  value: [(function_expression !name) (generator_function !name) (arrow_function)] @definition.function)

; Class members. The constructor and accessors come before plain methods.
(class_body
  (method_definition
    name: (property_identifier) @name
    (#eq? @name "constructor")) @definition.constructor)

(class_body
  (method_definition
    ["get" "set"]
    name: [(property_identifier) (private_property_identifier)] @name) @definition.property)

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method)

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name) @definition.field

; Module-level bindings: a function or class value names a function or
; class; otherwise const is a constant and let/var a variable. A
; require() is an import, not a definition.
(program
  (_
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))

(program
  (export_statement
    (_
      (variable_declarator
        name: (identifier) @name
        value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)))

(program
  (_
    (variable_declarator
      name: (identifier) @name
      value: (class)) @definition.class))

(program
  (export_statement
    (_
      (variable_declarator
        name: (identifier) @name
        value: (class)) @definition.class)))

((program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name) @definition.constant))
  (#not-match? @definition.constant "^[^=]*=\\s*require\\s*\\("))

((program
  (export_statement
    (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name) @definition.constant)))
  (#not-match? @definition.constant "^[^=]*=\\s*require\\s*\\("))

((program
  (_
    (variable_declarator
      name: (identifier) @name) @definition.variable))
  (#not-match? @definition.variable "^[^=]*=\\s*require\\s*\\("))

(program
  (export_statement
    (_
      (variable_declarator
        name: (identifier) @name) @definition.variable)))

; Methods of an object literal bound at module level: api.get().
(program
  (_
    (variable_declarator
      value: (object
        [(method_definition
           name: (property_identifier) @name) @definition.method
         (pair
           key: (property_identifier) @name
           value: [(arrow_function) (function_expression)]) @definition.method]))))

(program
  (export_statement
    (_
      (variable_declarator
        value: (object
          [(method_definition
             name: (property_identifier) @name) @definition.method
           (pair
             key: (property_identifier) @name
             value: [(arrow_function) (function_expression)]) @definition.method])))))

; Functions assigned at module level: Type.prototype.m = function …,
; exports.f = …, module.exports.f = …, Type.m = ….
((program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @parent
          property: (property_identifier) @_prototype)
        property: (property_identifier) @name)
      right: [(arrow_function) (function_expression)]) @definition.method))
  (#eq? @_prototype "prototype"))

((program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_exports
        property: (property_identifier) @name)
      right: [(arrow_function) (function_expression)]) @definition.function))
  (#eq? @_exports "exports"))

((program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @_module
          property: (property_identifier) @_exports)
        property: (property_identifier) @name)
      right: [(arrow_function) (function_expression)]) @definition.function))
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

((program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @parent
        property: (property_identifier) @name)
      right: [(arrow_function) (function_expression)]) @definition.method))
  (#not-eq? @parent "module"))

; ---- references ------------------------------------------------------

(call_expression
  function: (identifier) @reference.call)

(call_expression
  function: (member_expression
    property: [(property_identifier) (private_property_identifier)] @reference.call))

(new_expression
  constructor: (identifier) @reference.call)

(new_expression
  constructor: (member_expression
    property: (property_identifier) @reference.call))

(decorator (identifier) @reference.call)

(decorator (member_expression
  property: (property_identifier) @reference.call))

(class_heritage (identifier) @reference.type)

(class_heritage (member_expression
  property: (property_identifier) @reference.type))

; JSX components are references too: see jsx.scm, loaded after this file.

(member_expression
  property: [(property_identifier) (private_property_identifier)] @reference.member)

; Any other identifier is a use by name, except a JSX tag's own name: an
; intrinsic element (<div>) is not a reference. The predicate reads the
; parent's text only when it starts with "<".
((_ (identifier) @reference.name) @_parent
  (#not-match? @_parent "(?s)^<.*>$"))

(shorthand_property_identifier) @reference.name

; ---- imports ---------------------------------------------------------

; import x from "m"; import * as ns from "m"
(import_statement
  (import_clause (identifier) @import.alias)
  source: (string (string_fragment) @import.module)) @import

(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string (string_fragment) @import.module)) @import

; import {a, b as c} from "m"
(import_statement
  (import_clause
    (named_imports
      (import_specifier name: (_) @import.name)))
  source: (string (string_fragment) @import.module)) @import

(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (_) @import.name
        alias: (identifier) @import.alias)))
  source: (string (string_fragment) @import.module)) @import

; import "m" (for its side effects)
(import_statement
  .
  source: (string (string_fragment) @import.module)) @import

; export {a, b as c} from "m"; export * from "m"; export * as ns from "m"
(export_statement
  (export_clause
    (export_specifier name: (_) @import.name))
  source: (string (string_fragment) @import.module)) @import

(export_statement
  (export_clause
    (export_specifier
      name: (_) @import.name
      alias: (_) @import.alias))
  source: (string (string_fragment) @import.module)) @import

(export_statement
  "*" @import.name
  .
  source: (string (string_fragment) @import.module)) @import

(export_statement
  (namespace_export (_) @import.alias)
  source: (string (string_fragment) @import.module)) @import

; const x = require("m"); const {a, b: c} = require("m");
; const y = require("m").y; const z = require("m")(options); require("m").
; The declarator stands for the statement: a declaration may hold several.
((variable_declarator
  name: (identifier) @import.alias
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.module) .))) @import
  (#eq? @_require "require"))

((variable_declarator
  name: (object_pattern
    (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.module) .))) @import
  (#eq? @_require "require"))

((variable_declarator
  name: (object_pattern
    (pair_pattern
      key: (property_identifier) @import.name
      value: (identifier) @import.alias))
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.module) .))) @import
  (#eq? @_require "require"))

((variable_declarator
  name: (identifier) @import.alias
  value: (member_expression
    object: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @import.module) .))
    property: (property_identifier) @import.name)) @import
  (#eq? @_require "require"))

((variable_declarator
  value: (call_expression
    function: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @import.module) .)))) @import
  (#eq? @_require "require"))

((expression_statement
  (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.module) .))) @import
  (#eq? @_require "require"))
