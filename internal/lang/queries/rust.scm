; winnow's Rust query. Capture names follow the contract in doc.go.

; ---- definitions -----------------------------------------------------

(mod_item
  name: (identifier) @name) @definition.module

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.union

(enum_item
  name: (type_identifier) @name) @definition.enum

(enum_variant
  name: (identifier) @name) @definition.enum_member

(trait_item
  name: (type_identifier) @name) @definition.trait

; impl blocks qualify their items by the implementing type
; (Store.new), with or without a trait, generic or not.
(impl_item
  type: [(type_identifier) @name
         (generic_type type: (type_identifier) @name)
         (scoped_type_identifier name: (type_identifier) @name)
         (generic_type type: (scoped_type_identifier name: (type_identifier) @name))]) @scope

; Functions; inside an impl or a trait they are methods. A function in
; a block is kept (nested under its function), as Python's are.
(function_item
  name: (identifier) @name) @definition.function

; Trait methods without a default body and functions of extern blocks.
(function_signature_item
  name: (identifier) @name) @definition.function

(type_item
  name: (type_identifier) @name) @definition.type

(associated_type
  name: (type_identifier) @name) @definition.type

; Named fields of structs, unions and struct-like enum variants.
(field_declaration
  name: (field_identifier) @name) @definition.field

; Constants and statics of modules, impls, traits and extern blocks;
; those declared inside a function body are locals.
(source_file
  (const_item name: (identifier) @name) @definition.constant)

(declaration_list
  (const_item name: (identifier) @name) @definition.constant)

(source_file
  (static_item name: (identifier) @name) @definition.variable)

(declaration_list
  (static_item name: (identifier) @name) @definition.variable)

(macro_definition
  name: (identifier) @name) @definition.macro

; ---- references ------------------------------------------------------

(call_expression
  function: [(identifier) @reference.call
             (scoped_identifier name: (identifier) @reference.call)
             (field_expression field: (field_identifier) @reference.call)
             (generic_function
               function: [(identifier) @reference.call
                          (scoped_identifier name: (identifier) @reference.call)
                          (field_expression field: (field_identifier) @reference.call)])])

(macro_invocation
  macro: [(identifier) @reference.call
          (scoped_identifier name: (identifier) @reference.call)])

(type_identifier) @reference.type

(field_expression
  field: (field_identifier) @reference.member)

(field_initializer
  field: (field_identifier) @reference.member)

; 'static and '_ are lifetimes, not names.
((identifier) @reference.name
 (#not-any-of? @reference.name "static" "_"))

; ---- imports ---------------------------------------------------------

; use serde;  use std::collections::HashMap;
(use_declaration
  argument: (identifier) @import.module) @import

(use_declaration
  argument: (scoped_identifier
    path: (_) @import.module
    name: (identifier) @import.name)) @import

; use std::io::Result as IoResult;  use serde as sd;
(use_declaration
  argument: (use_as_clause
    path: (identifier) @import.module
    alias: (identifier) @import.alias)) @import

(use_declaration
  argument: (use_as_clause
    path: (scoped_identifier
      path: (_) @import.module
      name: (identifier) @import.name)
    alias: (identifier) @import.alias)) @import

; use std::fmt::{self, Display, Write as W, io::Read};
(use_declaration
  argument: (scoped_use_list
    path: (_) @import.module
    list: (use_list
      [(identifier) (self) (scoped_identifier)] @import.name))) @import

(use_declaration
  argument: (scoped_use_list
    path: (_) @import.module
    list: (use_list
      (use_as_clause
        path: (_) @import.name
        alias: (identifier) @import.alias)))) @import

; use crate::codec::*;
(use_declaration
  argument: (use_wildcard
    (_) @import.module
    "*" @import.name)) @import

(extern_crate_declaration
  name: (identifier) @import.module
  alias: (identifier)? @import.alias) @import
