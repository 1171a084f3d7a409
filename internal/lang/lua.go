package lang

import (
	lua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
)

var luaLang = &Language{
	Name:       "lua",
	Extensions: []string{".lua"},
	grammar:    lua.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
