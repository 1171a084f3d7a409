; winnow's Zig query. Capture names follow the contract in doc.go.
;
; Zig types are values: `const Point = struct {…}` defines the struct
; Point, and a container's declarations and fields nest inside it.

; ---- definitions -----------------------------------------------------

(variable_declaration
  (identifier) @name
  (struct_declaration)) @definition.struct

(variable_declaration
  (identifier) @name
  (enum_declaration)) @definition.enum

(variable_declaration
  (identifier) @name
  (union_declaration)) @definition.union

(variable_declaration
  (identifier) @name
  (error_set_declaration)) @definition.enum

(variable_declaration
  (identifier) @name
  (opaque_declaration)) @definition.type

(error_set_declaration
  (identifier) @name @definition.enum_member)

; Enum members, and union members without a payload, are parsed as a
; field with only a type.
(enum_declaration
  (container_field
    type: (identifier) @name) @definition.enum_member)

(union_declaration
  (container_field
    !name
    type: (identifier) @name) @definition.field)

(container_field
  name: (identifier) @name) @definition.field

; Functions; inside a container they are methods.
(function_declaration
  name: (identifier) @name) @definition.function

; Container-level constants and variables (those in a block are
; locals). A TitleCase constant names a type, by Zig's convention
; (const Allocator = std.mem.Allocator;). `const std = @import("std");`
; is an import, not a definition.
([(source_file
   (variable_declaration "const" . (identifier) @name) @definition.type)
  (struct_declaration
   (variable_declaration "const" . (identifier) @name) @definition.type)
  (enum_declaration
   (variable_declaration "const" . (identifier) @name) @definition.type)
  (union_declaration
   (variable_declaration "const" . (identifier) @name) @definition.type)
  (opaque_declaration
   (variable_declaration "const" . (identifier) @name) @definition.type)]
 (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$")
 (#not-match? @definition.type "^(pub\\s+)?const\\s+\\S+\\s*=\\s*@import\\s*\\("))

([(source_file
   [(variable_declaration "const" . (identifier) @name) @definition.constant
    (variable_declaration "var" . (identifier) @name) @definition.variable])
  (struct_declaration
   [(variable_declaration "const" . (identifier) @name) @definition.constant
    (variable_declaration "var" . (identifier) @name) @definition.variable])
  (enum_declaration
   [(variable_declaration "const" . (identifier) @name) @definition.constant
    (variable_declaration "var" . (identifier) @name) @definition.variable])
  (union_declaration
   [(variable_declaration "const" . (identifier) @name) @definition.constant
    (variable_declaration "var" . (identifier) @name) @definition.variable])
  (opaque_declaration
   [(variable_declaration "const" . (identifier) @name) @definition.constant
    (variable_declaration "var" . (identifier) @name) @definition.variable])]
 (#not-match? @definition.constant "^(pub\\s+)?const\\s+\\S+\\s*=\\s*@import\\s*\\("))

; ---- references ------------------------------------------------------

(call_expression
  function: [(identifier) @reference.call
             (field_expression member: (identifier) @reference.call)])

; Types are expressions; these are the places that hold one.
(parameter type: (identifier) @reference.type)
(function_declaration type: (identifier) @reference.type)
(variable_declaration type: (identifier) @reference.type)
(container_field type: (identifier) @reference.type)
(struct_initializer (identifier) @reference.type)
(pointer_type (identifier) @reference.type)
(nullable_type (identifier) @reference.type)
(slice_type (identifier) @reference.type)
(array_type (identifier) @reference.type)
(error_union_type (identifier) @reference.type)

(field_expression
  member: (identifier) @reference.member)

(identifier) @reference.name

; ---- imports ---------------------------------------------------------

; const std = @import("std");  const json = @import("json.zig");
; The constant's name is an alias only when it differs from the module.
((variable_declaration
  (identifier)
  (builtin_function
    (builtin_identifier) @_builtin
    (arguments (string (string_content) @import.module)))) @import
 (#eq? @_builtin "@import"))

((variable_declaration
  (identifier) @import.alias
  (builtin_function
    (builtin_identifier) @_builtin
    (arguments (string (string_content) @import.module)))) @import
 (#eq? @_builtin "@import")
 (#not-eq? @import.alias @import.module))

; const mem = @import("std").mem;
((variable_declaration
  (identifier)
  (field_expression
    object: (builtin_function
      (builtin_identifier) @_builtin
      (arguments (string (string_content) @import.module)))
    member: (identifier) @import.name)) @import
 (#eq? @_builtin "@import"))

((variable_declaration
  (identifier) @import.alias
  (field_expression
    object: (builtin_function
      (builtin_identifier) @_builtin
      (arguments (string (string_content) @import.module)))
    member: (identifier) @import.name)) @import
 (#eq? @_builtin "@import")
 (#not-eq? @import.alias @import.name))

; usingnamespace @import("other.zig");
((using_namespace_declaration
  (builtin_function
    (builtin_identifier) @_builtin
    (arguments (string (string_content) @import.module)))) @import
 (#eq? @_builtin "@import"))
