package lang

import (
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/symbol"
)

// The brace pass's languages: their words, and their rules of visibility
// as far as modifiers and names tell them.

var ecmaTypes = map[string]symbol.Kind{"class": symbol.Class}

var ecmaKeywords = `break case catch class const continue debugger default delete do else export extends finally for
	function if import in instanceof let new return super switch this throw try typeof var void while with yield
	async await of null true false undefined static get set`

var javascriptBraces = sync.OnceValue(func() *braceLang {
	return &braceLang{
		keywords:   set(ecmaKeywords),
		types:      ecmaTypes,
		funcs:      set("function"),
		vars:       map[string]symbol.Kind{"const": symbol.Constant, "let": symbol.Variable, "var": symbol.Variable},
		mods:       set("static async"),
		jsMembers:  true,
		exported:   true,
		atAnno:     true,
		imports:    importsECMA,
		visibility: ecmaScanVisibility,
	}
})

var typescriptBraces = sync.OnceValue(func() *braceLang {
	return &braceLang{
		keywords: set(ecmaKeywords + ` interface type enum namespace module declare abstract implements private protected
			public readonly keyof infer is as any unknown never`),
		types: map[string]symbol.Kind{"class": symbol.Class, "interface": symbol.Interface, "enum": symbol.Enum,
			"namespace": symbol.Namespace, "module": symbol.Module},
		funcs:       set("function"),
		vars:        map[string]symbol.Kind{"const": symbol.Constant, "let": symbol.Variable, "var": symbol.Variable, "type": symbol.Type},
		mods:        set("static async abstract declare public private protected readonly override accessor"),
		jsMembers:   true,
		exported:    true,
		atAnno:      true,
		decoSibling: true,
		colonTypes:  true,
		imports:     importsECMA,
		visibility:  ecmaScanVisibility,
	}
})

var javaBraces = sync.OnceValue(func() *braceLang {
	return &braceLang{
		keywords: set(`abstract assert boolean break byte case catch char class const continue default do double else enum
			extends final finally float for goto if implements import instanceof int interface long native new package
			private protected public return short static strictfp super switch synchronized this throw throws transient
			try void volatile while var record yield null true false sealed permits non`),
		types: map[string]symbol.Kind{"class": symbol.Class, "interface": symbol.Interface, "enum": symbol.Enum,
			"record": symbol.Class, "module": symbol.Module},
		mods:       set("public private protected static final abstract native synchronized transient volatile strictfp default sealed open"),
		control:    set("if for while switch catch return new throw synchronized try do else case assert yield super this"),
		cMembers:   true,
		semicolons: true,
		atAnno:     true,
		ctorByName: true,
		imports:    importsDotted,
		visibility: javaScanVisibility,
	}
})

var csharpBraces = sync.OnceValue(func() *braceLang {
	return &braceLang{
		keywords: set(`abstract as base bool break byte case catch char checked class const continue decimal default
			delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in
			int interface internal is lock long namespace new null object operator out override params private protected
			public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try
			typeof uint ulong unchecked unsafe ushort using virtual void volatile while var async await record get set
			value init partial where`),
		types: map[string]symbol.Kind{"class": symbol.Class, "interface": symbol.Interface, "enum": symbol.Enum,
			"struct": symbol.Struct, "record": symbol.Class, "namespace": symbol.Namespace},
		mods: set(`public private protected internal static readonly const abstract virtual override sealed async extern
			unsafe volatile new partial event required file`),
		control:    set("if for foreach while switch catch return new throw lock using try do else case nameof typeof sizeof default await base this"),
		cMembers:   true,
		semicolons: true,
		csAttr:     true,
		ctorByName: true,
		imports:    importsDotted,
		visibility: csharpScanVisibility,
	}
})

var kotlinBraces = sync.OnceValue(func() *braceLang {
	return &braceLang{
		keywords: set(`as break class continue do else false for fun if in interface is null object package return super
			this throw true try typealias val var when while by catch constructor finally get import init set where data
			enum sealed open abstract override private protected public internal companion inner lateinit const suspend`),
		types: map[string]symbol.Kind{"class": symbol.Class, "interface": symbol.Interface, "object": symbol.Class,
			"typealias": symbol.Type},
		funcs:      set("fun"),
		vars:       map[string]symbol.Kind{"val": symbol.Variable, "var": symbol.Variable},
		mods:       set("public private protected internal abstract open final override data sealed enum inner companion lateinit const suspend inline operator infix external annotation value tailrec"),
		atAnno:     true,
		colonTypes: true,
		imports:    importsDotted,
		visibility: kotlinScanVisibility,
	}
})

var rustBraces = sync.OnceValue(func() *braceLang {
	return &braceLang{
		keywords: set(`as async await break const continue crate dyn else enum extern false fn for if impl in let loop match
			mod move mut pub ref return self Self static struct super trait true type union unsafe use where while`),
		types: map[string]symbol.Kind{"struct": symbol.Struct, "enum": symbol.Enum, "trait": symbol.Trait,
			"union": symbol.Union, "mod": symbol.Module, "type": symbol.Type},
		funcs:       set("fn"),
		vars:        map[string]symbol.Kind{"const": symbol.Constant, "static": symbol.Variable},
		mods:        set("pub unsafe async extern default"),
		scope:       "impl",
		semicolons:  true,
		attrSibling: true,
		hashAttr:    true,
		qualified:   true,
		colonTypes:  true,
		imports:     importsRust,
		visibility:  rustScanVisibility,
	}
})

var cBraces = sync.OnceValue(func() *braceLang {
	return &braceLang{
		keywords: set(`auto break case char const continue default do double else enum extern float for goto if inline int
			long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile
			while _Bool bool NULL true false`),
		types:      map[string]symbol.Kind{"struct": symbol.Struct, "union": symbol.Union, "enum": symbol.Enum},
		mods:       set("static extern inline const volatile register typedef"),
		control:    set("if for while switch return sizeof do else case defined"),
		cMembers:   true,
		semicolons: true,
		preproc:    true,
		visibility: cScanVisibility,
	}
})

var cppBraces = sync.OnceValue(func() *braceLang {
	return &braceLang{
		keywords: set(`alignas alignof and asm auto bool break case catch char class const constexpr const_cast continue
			decltype default delete do double dynamic_cast else enum explicit export extern false float for friend goto if
			inline int long mutable namespace new noexcept nullptr operator or private protected public register
			reinterpret_cast return short signed sizeof static static_assert static_cast struct switch template this
			throw true try typedef typeid typename union unsigned using virtual void volatile while override final`),
		types: map[string]symbol.Kind{"struct": symbol.Struct, "union": symbol.Union, "enum": symbol.Enum,
			"class": symbol.Class, "namespace": symbol.Namespace},
		mods:       set("static extern inline const constexpr volatile virtual explicit friend mutable typedef"),
		control:    set("if for while switch return sizeof do else case catch throw new delete defined alignof decltype static_assert using"),
		cMembers:   true,
		semicolons: true,
		template:   true,
		ctorByName: true,
		qualified:  true,
		preproc:    true,
		visibility: cScanVisibility,
	}
})

// ecmaScanVisibility: #names and private members are private, protected
// ones protected; what a module or namespace holds is public when it is
// exported, and a function's locals private.
func ecmaScanVisibility(mods []string, name string, in symbol.Kind) symbol.Visibility {
	switch {
	case strings.HasPrefix(name, "#"), hasWord(mods, "private"):
		return symbol.Private
	case hasWord(mods, "protected"):
		return symbol.Protected
	case in.IsType(), in == symbol.Type:
		return symbol.Public
	case hasWord(mods, "export"), hasWord(mods, "declare"):
		return symbol.Public
	}
	return symbol.Private
}

func javaScanVisibility(mods []string, name string, in symbol.Kind) symbol.Visibility {
	if v, ok := accessFromWords(mods); ok {
		return v
	}
	if in == symbol.Interface {
		return symbol.Public
	}
	return symbol.Internal
}

func csharpScanVisibility(mods []string, name string, in symbol.Kind) symbol.Visibility {
	if v, ok := accessFromWords(mods); ok {
		return v
	}
	switch {
	case in == symbol.Interface, in == symbol.Enum, in == symbol.Namespace && name != "":
		return symbol.Public
	case in.IsType():
		return symbol.Private
	}
	return symbol.Internal
}

func kotlinScanVisibility(mods []string, name string, in symbol.Kind) symbol.Visibility {
	v, _ := accessFromWords(mods) // Kotlin's default is public, as is accessFromWords'
	return v
}

func rustScanVisibility(mods []string, name string, in symbol.Kind) symbol.Visibility {
	switch {
	case hasWord(mods, "pub(crate)"):
		return symbol.Internal
	case hasWord(mods, "pub"), in == symbol.Trait, in == symbol.Enum:
		return symbol.Public
	}
	return symbol.Private
}

func cScanVisibility(mods []string, name string, in symbol.Kind) symbol.Visibility {
	if hasWord(mods, "static") && !in.IsType() {
		return symbol.Private
	}
	return symbol.Public
}
