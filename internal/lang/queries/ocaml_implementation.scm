; OCaml implementations only (.ml): values at the top of a file, which
; the interface grammar cannot parse. See ocaml.scm.

(compilation_unit
  (value_definition
    (let_binding
      pattern: [(value_name) @name
                (parenthesized_operator (_) @name)]
      (parameter)) @definition.function))

(compilation_unit
  (value_definition
    (let_binding
      pattern: [(value_name) @name
                (parenthesized_operator (_) @name)]
      body: [(function_expression) (fun_expression)]) @definition.function))

((compilation_unit
  (value_definition
    .
    (let_binding
      pattern: (value_name) @name
      body: (_) @_body) @_binding
    .) @definition.variable)
  (#match? @_binding "^[a-z_][A-Za-z0-9_']*\\s*[=:]")
  (#not-match? @_body "^fun(ction)?\\b"))

([(compilation_unit
    (value_definition
      (let_binding)
      (let_binding
        pattern: (value_name) @name
        body: (_) @_body) @_binding @definition.variable))
  (compilation_unit
    (value_definition
      (let_binding
        pattern: (value_name) @name
        body: (_) @_body) @_binding @definition.variable
      (let_binding)))]
  (#match? @_binding "^[a-z_][A-Za-z0-9_']*\\s*[=:]")
  (#not-match? @_body "^fun(ction)?\\b"))
