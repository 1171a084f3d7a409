package lang

import (
	php "github.com/tree-sitter/tree-sitter-php/bindings/go"
)

var phpLang = &Language{
	Name:       "php",
	Extensions: []string{".php", ".phtml"},
	grammar:    php.LanguagePHP,
	rules: rules{
		comments: []string{"comment"},
	},
}
