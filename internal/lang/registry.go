package lang

// languages is every language winnow reads. ForPath takes the first
// language that claims an extension, so order matters only for clashes.
var languages = []*Language{
	pythonLang,
	goLang,
	javascriptLang,
	typescriptLang,
	tsxLang,
	javaLang,
	rustLang,
	cLang,
	cppLang,
	rubyLang,
	csharpLang,
	phpLang,
	bashLang,
	scalaLang,
	ocamlLang,
	ocamlInterfaceLang,
	haskellLang,
	luaLang,
	kotlinLang,
	zigLang,
}
