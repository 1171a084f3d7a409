; winnow's Ruby query. Capture names follow the contract in doc.go.

; ---- definitions -----------------------------------------------------

; Modules and classes. A compact name (class A::B) puts the definition
; inside A, whatever encloses it lexically.
(module
  name: (scope_resolution
    scope: (_) @parent
    name: (constant) @name)) @definition.module

(module
  name: (constant) @name) @definition.module

(class
  name: (scope_resolution
    scope: (_) @parent
    name: (constant) @name)) @definition.class

(class
  name: (constant) @name) @definition.class

; Constants that hold a class made at run time: Point = Struct.new(...),
; Point = Data.define(...), Error = Class.new(StandardError),
; Helpers = Module.new.
((assignment
  left: (constant) @name
  right: (call
    receiver: (constant) @_receiver
    method: (identifier) @_method)) @definition.struct
  (#eq? @_receiver "Struct")
  (#eq? @_method "new"))

((assignment
  left: (constant) @name
  right: (call
    receiver: (constant) @_receiver
    method: (identifier) @_method)) @definition.struct
  (#eq? @_receiver "Data")
  (#eq? @_method "define"))

((assignment
  left: (constant) @name
  right: (call
    receiver: (constant) @_receiver
    method: (identifier) @_method)) @definition.class
  (#eq? @_receiver "Class")
  (#eq? @_method "new"))

((assignment
  left: (constant) @name
  right: (call
    receiver: (constant) @_receiver
    method: (identifier) @_method)) @definition.module
  (#eq? @_receiver "Module")
  (#eq? @_method "new"))

; Methods. initialize is the constructor; a def at the top of a file is
; a function (a private method of Object that every file can call); any
; other def is a method of what encloses it: class, module, class <<
; self, or a block such as Class.new do … end.
((method
  name: (identifier) @name) @definition.constructor
  (#eq? @name "initialize"))

(program
  (method
    name: (_) @name) @definition.function)

(method
  name: (_) @name) @definition.method

; def self.m and def Other.m: singleton methods. Callers write
; Class.m, which is the qualified name either way.
(singleton_method
  object: [(constant) (scope_resolution)] @parent
  name: (_) @name) @definition.method

(singleton_method
  name: (_) @name) @definition.method

(alias
  name: (_) @name) @definition.method

; Constants: X = 1 in a class, a module or the file; A::X = 1.
(assignment
  left: (scope_resolution
    scope: (_) @parent
    name: (constant) @name)) @definition.constant

(assignment
  left: (constant) @name) @definition.constant

; Class variables set in a class or module body are its fields.
([(class (body_statement
    (assignment left: (class_variable) @name) @definition.field))
  (module (body_statement
    (assignment left: (class_variable) @name) @definition.field))])

; Globals assigned at the top of a file.
(program
  (assignment
    left: (global_variable) @name) @definition.variable)

; ---- references ------------------------------------------------------

; Foo.new and Foo::Bar.new construct Foo: a call to the class.
((call
  receiver: [(constant) @reference.call
             (scope_resolution name: (constant) @reference.call)]
  method: (identifier) @_new)
  (#eq? @_new "new"))

; Every method call, with or without a receiver or parentheses, except
; the access-control calls (private :m, private_constant :C).
((call
  method: [(identifier) (constant)] @reference.call)
  (#not-any-of? @reference.call
    "private" "protected" "public" "module_function"
    "private_class_method" "public_class_method"
    "private_constant" "public_constant"))

; alias new old: the old method is used.
(alias
  alias: (identifier) @reference.call)

; The receiver of a call on a constant is a class or module, whatever
; its case: JSON.generate, IO.popen.
(call
  receiver: [(constant) @reference.type
             (scope_resolution name: (constant) @reference.type)])

(superclass
  [(constant) @reference.type
   (scope_resolution name: (constant) @reference.type)])

; include, extend and prepend name modules.
((call
  method: (identifier) @_mixin
  arguments: (argument_list
    [(constant) @reference.type
     (scope_resolution name: (constant) @reference.type)]))
  (#any-of? @_mixin "include" "extend" "prepend"))

; Instance and class variables are the object's state.
(instance_variable) @reference.member
(class_variable) @reference.member

; CamelCase constants name classes and modules; SCREAMING_CASE ones
; name values.
((constant) @reference.type
  (#match? @reference.type "[a-z]"))

(constant) @reference.name

; A bare private, protected or public opens a visibility section; it is
; not a use of a name.
((identifier) @reference.name
  (#not-any-of? @reference.name
    "private" "protected" "public" "module_function"
    "private_class_method" "public_class_method"
    "private_constant" "public_constant"))

; ---- imports ---------------------------------------------------------

((call
  !receiver
  method: (identifier) @_require
  arguments: (argument_list
    .
    (string (string_content) @import.module))) @import
  (#any-of? @_require "require" "require_relative" "load"))

((call
  !receiver
  method: (identifier) @_autoload
  arguments: (argument_list
    (simple_symbol)
    (string (string_content) @import.module))) @import
  (#eq? @_autoload "autoload"))
