; winnow's Haskell query. Capture names follow the contract in doc.go.

(header
  module: (module) @package)

; ---- definitions -----------------------------------------------------

; Types. data with two or more constructors is a sum type (enum); data
; with one, and newtype, are product types (struct).
(data_type
  name: (name) @name
  constructors: (data_constructors
    (data_constructor)
    (data_constructor))) @definition.enum

(data_type
  name: (name) @name
  constructors: (gadt_constructors
    (gadt_constructor)
    (gadt_constructor))) @definition.enum

(data_type
  name: (name) @name) @definition.struct

(newtype
  name: (name) @name) @definition.struct

(type_synomym
  name: (name) @name) @definition.type

(type_family
  name: (name) @name) @definition.type

(data_family
  name: (name) @name) @definition.type

; Type classes are interfaces: their signatures are its methods.
(class
  name: (name) @name) @definition.interface

; Data constructors: the only constructor of a type is its constructor,
; the alternatives of a sum type are its members.
(data_constructors
  .
  (data_constructor
    constructor: [(prefix name: (constructor) @name)
                  (record name: (constructor) @name)
                  (infix operator: (constructor_operator) @name)]) @definition.constructor
  .)

(data_constructor
  constructor: [(prefix name: (constructor) @name)
                (record name: (constructor) @name)
                (infix operator: (constructor_operator) @name)]) @definition.enum_member

(gadt_constructors
  .
  (gadt_constructor
    name: (constructor) @name) @definition.constructor
  .)

(gadt_constructor
  name: (constructor) @name) @definition.enum_member

(newtype_constructor
  name: (constructor) @name) @definition.constructor

; Record fields. A field with one name (x :: Int) is the definition;
; each name of x, y :: Int is one on its own.
(field
  .
  name: (field_name (variable) @name)
  .
  type: (_)) @definition.field

(field
  .
  name: (field_name (variable) @name) @definition.field
  .
  name: (field_name))

(field
  name: (field_name)
  .
  name: (field_name (variable) @name) @definition.field)

; Pattern synonyms act as constructors.
(pattern_synonym
  (equation
    synonym: (constructor) @name)) @definition.constructor

(foreign_import
  signature: (signature
    name: (variable) @name)) @definition.function

; Functions and values. A type signature is the definition: it carries
; the type and the haddock. Each name of f, g :: T is a definition.
[(declarations
   (signature
     name: (variable) @name) @definition.function)
 (class_declarations
   (signature
     name: (variable) @name) @definition.function)
 (instance_declarations
   (signature
     name: (variable) @name) @definition.function)]

[(declarations
   (signature
     name: (prefix_id (operator) @name)) @definition.function)
 (class_declarations
   (signature
     name: (prefix_id (operator) @name)) @definition.function)]

[(declarations
   (signature
     names: (binding_list
       name: (variable) @name @definition.function)))
 (class_declarations
   (signature
     names: (binding_list
       name: (variable) @name @definition.function)))]

; The equations of a function are scopes named after it, so that what
; they use is attributed to the function; no equation is a symbol of its
; own, except the first equation of a function without a signature just
; above it. These patterns find that equation: it opens the block, or
; follows a declaration that is neither its signature nor an equation of
; the same name.
[(declarations
   .
   [(function name: (variable) @name)
    (bind name: (variable) @name)] @definition.function)
 (instance_declarations
   .
   [(function name: (variable) @name)
    (bind name: (variable) @name)] @definition.function)]

([(declarations
    [(signature name: (variable) @_previous)
     (function name: (variable) @_previous)
     (bind name: (variable) @_previous)]
    .
    [(function name: (variable) @name)
     (bind name: (variable) @name)] @definition.function)
  (class_declarations
    [(signature name: (variable) @_previous)
     (function name: (variable) @_previous)
     (bind name: (variable) @_previous)]
    .
    [(function name: (variable) @name)
     (bind name: (variable) @name)] @definition.function)
  (instance_declarations
    [(signature name: (variable) @_previous)
     (function name: (variable) @_previous)
     (bind name: (variable) @_previous)]
    .
    [(function name: (variable) @name)
     (bind name: (variable) @name)] @definition.function)]
  (#not-eq? @_previous @name))

[(declarations
   [(comment) (haddock) (pragma) (ERROR)
    (signature !name) (function !name) (bind !name)
    (class) (data_family) (data_instance) (data_type) (default_types)
    (deriving_instance) (fixity) (foreign_export) (foreign_import)
    (instance) (kind_signature) (newtype) (pattern_synonym)
    (role_annotation) (top_splice) (type_family) (type_instance)
    (type_synomym)]
   .
   [(function name: (variable) @name)
    (bind name: (variable) @name)] @definition.function)
 (instance_declarations
   [(comment) (haddock) (pragma) (ERROR)
    (signature !name) (function !name) (bind !name)
    (data_instance) (type_instance)]
   .
   [(function name: (variable) @name)
    (bind name: (variable) @name)] @definition.function)]

[(declarations
   [(function name: (variable) @name)
    (bind name: (variable) @name)] @scope)
 (class_declarations
   [(function name: (variable) @name)
    (bind name: (variable) @name)] @scope)
 (instance_declarations
   [(function name: (variable) @name)
    (bind name: (variable) @name)] @scope)]

[(declarations
   (function (infix operator: (operator) @name)) @scope)
 (class_declarations
   (function (infix operator: (operator) @name)) @scope)
 (instance_declarations
   (function (infix operator: (operator) @name)) @scope)]

; An instance qualifies its methods with the type it is for, as a Rust
; impl block does: instance Show Shape defines Shape.show.
(instance
  patterns: (type_patterns
    .
    [(name) @name
     (parens type: (apply constructor: (name) @name))
     (parens type: (name) @name)
     (qualified id: (name) @name)])) @scope

; ---- references ------------------------------------------------------

(apply
  function: [(variable) @reference.call
             (constructor) @reference.call
             (qualified id: [(variable) (constructor)] @reference.call)])

(infix
  operator: (infix_id
    [(variable) @reference.call
     (qualified id: (variable) @reference.call)]))

(name) @reference.type
(qualified id: (name) @reference.type)

(projection
  field: (field_name (variable) @reference.member))

(field_update
  field: (field_name (variable) @reference.member))

(field_pattern
  field: (field_name (variable) @reference.member))

(variable) @reference.name
(constructor) @reference.name

; ---- imports ---------------------------------------------------------

; import M, import qualified M as N, import M hiding (x): the module.
(import
  module: (module) @import.module
  alias: (module)? @import.alias
  !names) @import

((import
  module: (module) @import.module
  alias: (module)? @import.alias) @import
  (#match? @import "\\shiding\\b"))

; import M (a, T(..)): each name.
((import
  module: (module) @import.module
  alias: (module)? @import.alias
  names: (import_list
    name: (import_name
      [(variable) (name) (prefix_id)] @import.name))) @import
  (#not-match? @import "\\shiding\\b"))
