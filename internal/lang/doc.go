/*
Package lang knows the programming languages winnow reads: which file
names belong to which language, the tree-sitter grammar for each, and
winnow's own queries that find definitions, references and imports in
a syntax tree. A Parser turns one source file into a symbol.File.

It does not walk directories, decide which files to skip, or store
anything; package index does that.

# How extraction works

Each language has a query written for winnow, queries/<name>.scm (the
grammars' own tags.scm files are thin and not exposed by the Go
bindings); a language that extends another composes files instead
(JavaScript is javascript.scm then jsx.scm, TSX is typescript.scm then
jsx.scm). A Parser reads the query's matches by capture name. The
capture names are a contract; any other name fails the query at load
time, so a typo cannot silently drop data.

Most reference patterns match one node per identifier; as query matches
they were a quarter of a parse's CPU. Patterns that are chains, one
child pattern per node down to a leaf ((call function: (identifier)
@reference.call), (identifier) @reference.name, (function_definition
name: (identifier) @name) @definition.function), with text predicates on
the leaf or one other node, leave the query at load time (pattern.go
reads the source's patterns): references, and definitions, scopes,
names and parents, but not imports or the package, whose matches'
order counts. One walk of the tree with a tree cursor, in C, matches
them all against each node's ancestors (walk.go), as tree-sitter would:
the same symbols and fields, wildcards that never match ERROR, and a
state waiting for a child in a field that ends at the first child in
that field the grammar says has no later sibling in it (const a, b
defines a only). The same walk lists the nodes at which the remaining
patterns can start, and the query runs from each of those alone (a
cursor with maximum start depth 0), not over the whole tree: it visits
only what the patterns look at. A language with a pattern that can
start at any node (TypeScript, C++, PHP: a wildcard root) runs its
query over the whole tree. A smaller query also compiles faster (Python:
2 ms, from 13), which a one-file winnow index pays once per process,
on a goroutine of its own while the first file of the language parses
(Language.loadAsync; the parse needs the grammar only).
TestWalkAgreesWithQuery holds the walk to the plain query's output on
every golden file, whole and cut short.

	@definition.<kind>  the node of a definition; <kind> is a symbol.Kind
	                    name: function, method, constructor, class,
	                    struct, interface, trait, enum, enum_member,
	                    union, type, constant, variable, field, property,
	                    module, namespace, macro
	@name               the definition's (or scope's) name, same match
	@parent             an explicit container name for the definition in
	                    the same match: Go's receiver type, C++'s A in A::f
	@scope              a node that qualifies the definitions inside it but
	                    is not one itself (Rust impl blocks); needs @name
	@reference.<kind>   an identifier use: call, type, member or name
	@import             an import statement, with @import.module,
	                    @import.name and @import.alias in the same match
	@package            the file's package or namespace name
	@_…                 free for predicates; ignored

The same node may match several patterns: for definitions the pattern
that comes first in the file wins (so list specific patterns, such as
"a type_spec whose type is a struct", before general ones); for
references the most specific kind wins (call, then type, member, name).

# What the Go code adds

Queries find nodes; the rest is computed, the same way for every
language, from the language's rules:

  - Nesting. Definitions are sorted by position and nested by byte-range
    containment. The innermost enclosing definition or scope is the
    parent; an explicit @parent overrides it.
  - Qualified names join the parent chain with dots ("Outer.Inner.m").
    Languages whose callers write a package prefix (Go) also prefix
    top-level names with the package ("pkg.Func", "pkg.Type.Method").
  - Kinds. A function directly inside a type or scope, or with an
    explicit parent, is a method.
  - Span and signature start at a wrapper that belongs to the definition
    alone (decorated_definition, export_statement, a type_declaration
    with one spec). The signature is the text up to the body (the "body"
    field or a child of one of the language's body kinds), trimmed;
    without a body it is the first few lines.
  - Doc is a docstring found by the language's rule (Python), else the
    comments directly above the definition: adjacent lines only,
    attributes allowed in between, never a comment trailing code.
  - Visibility comes from the language's rule: naming conventions (Go,
    Python) or modifiers (Java, C#, Rust …); Public by default.
  - References are attributed to the innermost enclosing definition and
    aggregated per scope, name and kind with a count and the first line.
    The name of a definition is not a reference to it.

A file with syntax errors still yields every definition tree-sitter
could place; File.HasError records that the tree had errors.

# The fast scanner

A Scanner (scan.go) produces the same symbol.File without a parse, for
the index's quick tier: about a fifteenth of a parse's CPU on Python. A
lexer (scanlex.go) splits a file into identifiers, numbers, strings and
punctuation, knowing each language's strings and comments (triple
quotes, raw strings, f-string fields, templates, regular expressions,
heredocs), so that a keyword inside a string or a comment is never
code. A pass per language (scan_<lang>.go) then finds definitions by
their keywords and spans them by indentation (Python) or by matching
brackets, and marks the identifiers that are not references (names
being defined, imports) or whose kind it knows (base classes and
annotations are types). What follows is shared with the parser:
nesting, qualified names and kinds (resolveWith), signatures and
docs cut by the same rules, references aggregated per scope.

A pass that cannot read a file with confidence (brackets that do not
balance, a string that does not close: a file in the middle of an
edit) refuses it with ErrScan and the index leaves it to the parser; so
does a scanner bug, recovered, never a crash. A language without a pass
is ErrNoScanner. Passes: Python (scan_python.go, by indentation), Go
(scan_go.go, by Go's newline rule), Ruby (scan_ruby.go, counting the
blocks an end closes), and JavaScript, TypeScript, TSX, Java, C#,
Kotlin, Rust, C and C++ (scan_braces.go, one pass with each language's
words in scan_langs.go). Measured against the parser, definitions with
the same kind, qualified name and lines:

	Python  sympy, 1,545 files       49,604 of 49,604, same signatures and docs
	Go      this repository, 803     11,248 of 11,248, same signatures and docs
	JS      npm's lib, 137 files      1,242 of 1,242
	TS      zod's src, 332 files      98.8%
	Java    141 files on this host   99.8%
	Rust    126 files                97.7%
	C#      32 files                 96.9%
	C       astropy's, 128 files     88.3% (2 refused: braces split by #ifdef)

TestScanAgreesWithParser holds each language to its share on the
parser's golden files (Python, Go, C, Ruby: all, exactly).

# Resources

tree-sitter objects are C memory with no finalizers. A Parser owns one
tree-sitter parser per language, one query cursor, one batch of query
matches (matches.go: the matches of a file are read a thousand at a
time in one cgo call, not three calls each through go-tree-sitter) and
the walk's buffers (walk.go), and frees them in Close; every tree is
closed before Parse returns. Languages, compiled queries and walk rules
are shared and live for the process. Files of 128 KB or more are parsed
alone in the process (no other parse runs meanwhile), and their memory
is handed back to the system after each (alloc.go): a tree takes about
a hundred bytes per byte of source.
*/
package lang
