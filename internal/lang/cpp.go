package lang

import (
	cpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
)

var cppLang = &Language{
	Name:       "cpp",
	Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl"},
	grammar:    cpp.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
