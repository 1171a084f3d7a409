; JSX patterns, added to the JavaScript query (.js, .jsx) and to the
; TypeScript query for TSX files.

; ---- JSX -------------------------------------------------------------

; A capitalised tag is a component, rendered like a call. A closing tag
; is not counted again; an intrinsic element (<div>) is no reference.
((jsx_opening_element
  name: (identifier) @reference.call)
  (#match? @reference.call "^[A-Z]"))

((jsx_self_closing_element
  name: (identifier) @reference.call)
  (#match? @reference.call "^[A-Z]"))

(jsx_opening_element
  name: (member_expression property: (property_identifier) @reference.call))

(jsx_self_closing_element
  name: (member_expression property: (property_identifier) @reference.call))
