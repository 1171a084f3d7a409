; winnow's Bash query. Capture names follow the contract in doc.go.

; ---- definitions -----------------------------------------------------

; name() { … } and function name { … }.
(function_definition
  name: (word) @name) @definition.function

; Variables set at the top of a script; those inside functions are
; locals or globals a function happens to write, not definitions.
; readonly and declare -r (or typeset -r) make constants.
(program
  (declaration_command
    "readonly"
    (variable_assignment
      name: (variable_name) @name) @definition.constant))

((program
  (declaration_command
    ["declare" "typeset"]
    (word) @_flag
    (variable_assignment
      name: (variable_name) @name) @definition.constant))
  (#match? @_flag "^-[a-zA-Z]*r"))

(program
  (declaration_command
    (variable_assignment
      name: (variable_name) @name) @definition.variable))

(program
  (variable_assignment
    name: (variable_name) @name) @definition.variable)

(program
  (variable_assignments
    (variable_assignment
      name: (variable_name) @name) @definition.variable))

; ---- references ------------------------------------------------------

; Every command is a call: a function of this script or of one it
; sources, a builtin or a program.
((command
  name: (command_name (word) @reference.call))
  (#match? @reference.call "^[A-Za-z0-9_./~:+-]"))

; Variable uses ($x, ${x}, ${x[i]}, $((x + 1))) and writes inside
; functions; positional and special parameters are left out.
((variable_name) @reference.name
  (#match? @reference.name "^[A-Za-z_]"))

; ---- imports ---------------------------------------------------------

; source file and . file.
((command
  name: (command_name (word) @_source)
  .
  argument: [(word) (string) (raw_string) (concatenation)] @import.module) @import
  (#any-of? @_source "source" "."))
