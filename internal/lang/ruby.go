package lang

import (
	ruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
)

var rubyLang = &Language{
	Name:       "ruby",
	Extensions: []string{".rb", ".rake", ".gemspec", ".ru"},
	Filenames:  []string{"Rakefile", "Gemfile", "Guardfile", "Vagrantfile"},
	grammar:    ruby.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
