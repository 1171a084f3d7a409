package intent

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkFrames runs Detect on a trace and compares its frames; a trace
// always makes a confident BugFix.
func checkFrames(t *testing.T, text string, want []Frame) {
	t.Helper()
	r := Detect(text)
	if diff := cmp.Diff(want, r.Frames); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
	if r.Kind != BugFix || r.Confidence < traceConfidence {
		t.Errorf("Kind, Confidence = %v, %.2f; want bug_fix, at least %.2f", r.Kind, r.Confidence, traceConfidence)
	}
}

func TestFramesPythonChained(t *testing.T) {
	const text = `Checkout crashes when an item has no price

Traceback (most recent call last):
  File "/home/dev/proj/shop/cart.py", line 88, in total
    price = self.prices[item.sku]
            ~~~~~~~~~~~^^^^^^^^^^
KeyError: 'A-113'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/home/dev/proj/manage.py", line 12, in <module>
    main()
  File "/home/dev/.venv/lib/python3.12/site-packages/click/core.py", line 1157, in __call__
    return self.main(*args, **kwargs)
  File "/home/dev/proj/shop/cli.py", line 40, in report
    print(cart.total())
  File "/home/dev/proj/shop/cart.py", line 90, in total
    raise PricingError(f"no price for {item.sku}")
  File "<string>", line 3, in <lambda>
shop.errors.PricingError: no price for A-113
`
	py := func(file string, line int, fn, sym string, lib bool) Frame {
		return Frame{File: file, Line: line, Function: fn, Symbol: sym, Lang: "python", Library: lib}
	}
	checkFrames(t, text, []Frame{
		// The root cause's traceback first, innermost frame first.
		py("/home/dev/proj/shop/cart.py", 88, "total", "total", false),
		py("/home/dev/proj/shop/cart.py", 90, "total", "total", false),
		py("/home/dev/proj/shop/cli.py", 40, "report", "report", false),
		py("/home/dev/proj/manage.py", 12, "", "", false),
		py("<string>", 3, "<lambda>", "", true),
		py("/home/dev/.venv/lib/python3.12/site-packages/click/core.py", 1157, "__call__", "__call__", true),
	})
}

func TestFramesPytest(t *testing.T) {
	const text = `============================= test session starts ==============================
platform linux -- Python 3.12.1, pytest-8.0.0, pluggy-1.4.0
rootdir: /home/dev/proj
collected 14 items

tests/test_cart.py ..F...........                                        [100%]

=================================== FAILURES ===================================
_____________________________ test_total_discount ______________________________

    def test_total_discount():
        cart = Cart([Item("A-1", 2)], discount=0.1)
>       assert cart.total() == 18.0

tests/test_cart.py:27: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
shop/cart.py:58: in total
    subtotal = sum(self._line(i) for i in self.items)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <shop.cart.Cart object at 0x7f3a2c1b4d90>, item = None

    def _line(self, item):
>       return item.qty * self.prices[item.sku]
E       AttributeError: 'NoneType' object has no attribute 'qty'

shop/cart.py:71: AttributeError
=========================== short test summary info ============================
FAILED tests/test_cart.py::test_total_discount - AttributeError: 'NoneType' object has no attribute 'qty'
FAILED tests/test_cart.py::TestRefund::test_partial[eur] - assert 3 == 4
========================= 2 failed, 12 passed in 0.12s =========================
`
	py := func(file string, line int, fn, sym string) Frame {
		return Frame{File: file, Line: line, Function: fn, Symbol: sym, Lang: "python"}
	}
	checkFrames(t, text, []Frame{
		py("shop/cart.py", 71, "_line", "_line"),
		py("shop/cart.py", 58, "total", "total"),
		py("tests/test_cart.py", 27, "test_total_discount", "test_total_discount"),
		// The summary adds the test with no frames above, without a line.
		py("tests/test_cart.py", 0, "TestRefund.test_partial", "TestRefund.test_partial"),
	})
}

func TestFramesNode(t *testing.T) {
	const text = "/home/dev/app/node_modules/express/lib/router/index.js:646\n" +
		"            throw err;\n" +
		`TypeError: Cannot read properties of undefined (reading 'id')
    at getUser (/home/dev/app/src/routes/users.js:27:31)
    at Layer.handle [as handle_request] (/home/dev/app/node_modules/express/lib/router/layer.js:95:5)
    at next (/home/dev/app/node_modules/express/lib/router/route.js:149:13)
    at /home/dev/app/src/middleware/auth.js:14:5
    at async Promise.all (index 0)
    at async loadProfile (/home/dev/app/src/services/profile.ts:8:18)
    at new Session (file:///home/dev/app/src/session.mjs:3:9)
    at Object.<anonymous> (/home/dev/app/src/server.js:40:1)
    at Module._compile (node:internal/modules/cjs/loader:1376:14)
`
	js := func(file string, line, col int, fn, sym, lang string, lib bool) Frame {
		return Frame{File: file, Line: line, Column: col, Function: fn, Symbol: sym, Lang: lang, Library: lib}
	}
	checkFrames(t, text, []Frame{
		js("/home/dev/app/src/routes/users.js", 27, 31, "getUser", "getUser", "javascript", false),
		js("/home/dev/app/src/middleware/auth.js", 14, 5, "", "", "javascript", false),
		js("/home/dev/app/src/services/profile.ts", 8, 18, "async loadProfile", "loadProfile", "typescript", false),
		js("file:///home/dev/app/src/session.mjs", 3, 9, "new Session", "Session", "javascript", false),
		js("/home/dev/app/src/server.js", 40, 1, "Object.<anonymous>", "", "javascript", false),
		js("/home/dev/app/node_modules/express/lib/router/layer.js", 95, 5, "Layer.handle [as handle_request]", "Layer.handle", "javascript", true),
		js("/home/dev/app/node_modules/express/lib/router/route.js", 149, 13, "next", "next", "javascript", true),
		js("node:internal/modules/cjs/loader", 1376, 14, "Module._compile", "Module._compile", "javascript", true),
	})
}

func TestFramesFirefox(t *testing.T) {
	const text = `TypeError: data.items is undefined
renderList@http://localhost:3000/static/js/main.chunk.js:112:23
App/<@http://localhost:3000/static/js/main.chunk.js:40:7
@http://localhost:3000/static/js/main.chunk.js:9:1
`
	js := func(line, col int, fn, sym string) Frame {
		return Frame{File: "http://localhost:3000/static/js/main.chunk.js", Line: line, Column: col,
			Function: fn, Symbol: sym, Lang: "javascript"}
	}
	checkFrames(t, text, []Frame{
		js(112, 23, "renderList", "renderList"),
		js(40, 7, "App/<", "App"),
		js(9, 1, "", ""),
	})
}

func TestFramesJava(t *testing.T) {
	const text = `Exception in thread "main" java.lang.IllegalStateException: Failed to load config
	at com.acme.billing.ConfigLoader.load(ConfigLoader.java:57)
	at com.acme.billing.App.main(App.java:21)
Caused by: java.io.UncheckedIOException: java.nio.file.NoSuchFileException: billing.yml
	at com.acme.billing.ConfigLoader.read(ConfigLoader.java:88)
	at com.acme.billing.ConfigLoader.lambda$load$0(ConfigLoader.java:52)
	... 1 more
Caused by: java.nio.file.NoSuchFileException: billing.yml
	at java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:92)
	at java.base/java.nio.file.Files.newBufferedReader(Files.java:2994)
	at com.acme.billing.ConfigLoader$Source.open(ConfigLoader.java:120)
	at com.acme.billing.ConfigLoader$Source.<init>(ConfigLoader.kt:14)
	at jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
	... 2 more
`
	java := func(file string, line int, fn, sym, lang string, lib bool) Frame {
		return Frame{File: file, Line: line, Function: fn, Symbol: sym, Lang: lang, Library: lib}
	}
	checkFrames(t, text, []Frame{
		// The deepest cause first.
		java("ConfigLoader.java", 120, "com.acme.billing.ConfigLoader$Source.open", "ConfigLoader.Source.open", "java", false),
		java("ConfigLoader.kt", 14, "com.acme.billing.ConfigLoader$Source.<init>", "ConfigLoader.Source.Source", "kotlin", false),
		java("ConfigLoader.java", 88, "com.acme.billing.ConfigLoader.read", "ConfigLoader.read", "java", false),
		java("ConfigLoader.java", 52, "com.acme.billing.ConfigLoader.lambda$load$0", "ConfigLoader.load", "java", false),
		java("ConfigLoader.java", 57, "com.acme.billing.ConfigLoader.load", "ConfigLoader.load", "java", false),
		java("App.java", 21, "com.acme.billing.App.main", "App.main", "java", false),
		java("UnixException.java", 92, "java.base/sun.nio.fs.UnixException.translateToIOException", "UnixException.translateToIOException", "java", true),
		java("Files.java", 2994, "java.base/java.nio.file.Files.newBufferedReader", "Files.newBufferedReader", "java", true),
		java("", 0, "jdk.internal.reflect.NativeMethodAccessorImpl.invoke0", "NativeMethodAccessorImpl.invoke0", "java", true),
	})
}

func TestFramesDotnet(t *testing.T) {
	const text = `System.InvalidOperationException: Sequence contains no elements
   at System.Linq.ThrowHelper.ThrowNoElementsException()
   at System.Linq.Enumerable.First[TSource](IEnumerable` + "`" + `1 source)
   at Acme.Orders.OrderService.GetLatest(Int32 customerId) in /src/Acme.Orders/OrderService.cs:line 42
   at Acme.Orders.Api.OrdersController.<Get>d__3.MoveNext() in C:\build\Acme.Orders.Api\OrdersController.cs:line 27
`
	checkFrames(t, text, []Frame{
		{File: "/src/Acme.Orders/OrderService.cs", Line: 42, Function: "Acme.Orders.OrderService.GetLatest",
			Symbol: "OrderService.GetLatest", Lang: "csharp"},
		{File: `C:\build\Acme.Orders.Api\OrdersController.cs`, Line: 27, Function: "Acme.Orders.Api.OrdersController.<Get>d__3.MoveNext",
			Symbol: "OrdersController.Get", Lang: "csharp"},
	})
}

func TestFramesGoPanic(t *testing.T) {
	const text = `panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6a4b2e]

goroutine 42 [running]:
panic({0x7b4d20?, 0xb0c5a0?})
	/usr/local/go/src/runtime/panic.go:770 +0x132
github.com/acme/shipd/internal/queue.(*Worker).process(0xc0001a2000, {0x0, 0x0})
	/home/dev/shipd/internal/queue/worker.go:118 +0x4e
github.com/acme/shipd/internal/queue.(*Worker).Run.func1()
	/home/dev/shipd/internal/queue/worker.go:64 +0x85
github.com/go-chi/chi/v5.(*Mux).ServeHTTP(0xc000112000, {0x8e1f40, 0xc0002a0000}, 0xc0002b4000)
	/home/dev/go/pkg/mod/github.com/go-chi/chi/v5@v5.0.12/mux.go:90 +0x2f9
created by github.com/acme/shipd/internal/queue.(*Worker).Run in goroutine 1
	/home/dev/shipd/internal/queue/worker.go:60 +0x125

goroutine 1 [chan receive]:
main.main()
	/home/dev/shipd/cmd/shipd/main.go:33 +0x2d0
exit status 2
`
	gof := func(file string, line int, fn, sym string, lib bool) Frame {
		return Frame{File: file, Line: line, Function: fn, Symbol: sym, Lang: "go", Library: lib}
	}
	checkFrames(t, text, []Frame{
		gof("/home/dev/shipd/internal/queue/worker.go", 118, "github.com/acme/shipd/internal/queue.(*Worker).process", "queue.Worker.process", false),
		gof("/home/dev/shipd/internal/queue/worker.go", 64, "github.com/acme/shipd/internal/queue.(*Worker).Run.func1", "queue.Worker.Run", false),
		gof("/home/dev/shipd/internal/queue/worker.go", 60, "github.com/acme/shipd/internal/queue.(*Worker).Run", "queue.Worker.Run", false),
		gof("/home/dev/shipd/cmd/shipd/main.go", 33, "main.main", "main.main", false),
		gof("/usr/local/go/src/runtime/panic.go", 770, "panic", "panic", true),
		gof("/home/dev/go/pkg/mod/github.com/go-chi/chi/v5@v5.0.12/mux.go", 90, "github.com/go-chi/chi/v5.(*Mux).ServeHTTP", "chi.Mux.ServeHTTP", true),
	})
}

func TestFramesGoTest(t *testing.T) {
	const text = `=== RUN   TestSplit
=== RUN   TestSplit/empty_sections
    profile_test.go:41: Split(100) = [0 0 0 0 0], want a sum of 100
--- FAIL: TestSplit (0.00s)
    --- FAIL: TestSplit/empty_sections (0.00s)
FAIL
FAIL	github.com/acme/x/intent	0.004s
`
	checkFrames(t, text, []Frame{
		{File: "profile_test.go", Line: 41, Function: "TestSplit/empty_sections", Symbol: "TestSplit", Lang: "go"},
	})
}

func TestFramesRust(t *testing.T) {
	const text = "thread 'main' panicked at src/parser.rs:88:14:\n" +
		"called `Option::unwrap()` on a `None` value\n" + `stack backtrace:
   0: rust_begin_unwind
             at /rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/std/src/panicking.rs:645:5
   1: core::panicking::panic_fmt
             at /rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/core/src/panicking.rs:72:14
   2: tomlish::parser::Parser::parse_table
             at ./src/parser.rs:88:14
   3: <tomlish::Document as core::str::FromStr>::from_str
             at ./src/lib.rs:41:9
   4: tomlish::main::{{closure}}
             at ./src/main.rs:7:15
   5: std::rt::lang_start_internal
   6: main
   7: __libc_start_main
note: Some details are omitted, run with ` + "`RUST_BACKTRACE=full`" + ` for a verbose backtrace.
`
	rs := func(file string, line, col int, fn, sym string, lib bool) Frame {
		return Frame{File: file, Line: line, Column: col, Function: fn, Symbol: sym, Lang: "rust", Library: lib}
	}
	checkFrames(t, text, []Frame{
		// The panic line, with the function of the backtrace frame at the
		// same place.
		rs("src/parser.rs", 88, 14, "tomlish::parser::Parser::parse_table", "Parser.parse_table", false),
		rs("./src/lib.rs", 41, 9, "<tomlish::Document as core::str::FromStr>::from_str", "Document.from_str", false),
		rs("./src/main.rs", 7, 15, "tomlish::main::{{closure}}", "main", false),
		rs("/rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/std/src/panicking.rs", 645, 5, "rust_begin_unwind", "rust_begin_unwind", true),
		rs("/rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/core/src/panicking.rs", 72, 14, "core::panicking::panic_fmt", "panic_fmt", true),
	})
}

func TestFramesRustOldPanic(t *testing.T) {
	checkFrames(t, "thread 'main' panicked at 'index out of bounds: the len is 3 but the index is 5', src/main.rs:10:5\n",
		[]Frame{{File: "src/main.rs", Line: 10, Column: 5, Lang: "rust"}})
}

// TestFramesDedupAndCap: recursion repeats frames once, and a long trace
// keeps maxFrames.
func TestFramesDedupAndCap(t *testing.T) {
	text := "Traceback (most recent call last):\n"
	for range 3 {
		text += "  File \"/p/walk.py\", line 9, in walk\n    return walk(node.parent)\n"
	}
	for i := range 2 * maxFrames {
		text += "  File \"/p/deep.py\", line " + itoa(i+1) + ", in f\n"
	}
	text += "RecursionError: maximum recursion depth exceeded\n"
	r := Detect(text)
	if len(r.Frames) != maxFrames {
		t.Fatalf("got %d frames, want %d", len(r.Frames), maxFrames)
	}
	if r.Frames[0].Line != 2*maxFrames {
		t.Errorf("first frame %+v, want the innermost, line %d", r.Frames[0], 2*maxFrames)
	}
	walks := 0
	for _, f := range r.Frames {
		if f.File == "/p/walk.py" {
			walks++
		}
	}
	if walks != 0 {
		t.Errorf("walk.py (the outermost frame) made the cut %d times, want 0", walks)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestNoFrames: prose that mentions files, lines and "at" is not a trace.
func TestNoFrames(t *testing.T) {
	for _, text := range []string{
		"see parser.py:12 for the loop, and look at the cache in store.go:40",
		"at the moment, main.go:12: does too much",
		"1: first item\n2: second item",
		"mail me at dev@example.com:25 about it",
		"where is parse_header defined?",
	} {
		if r := Detect(text); r.Frames != nil || r.Kind == BugFix {
			t.Errorf("Detect(%q): Kind %v, frames %+v; want no frames and no bug fix", text, r.Kind, r.Frames)
		}
	}
}

func TestPathSuffixes(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"/home/u/proj/sympy/core/basic.py", []string{"home/u/proj/sympy/core/basic.py", "u/proj/sympy/core/basic.py", "proj/sympy/core/basic.py", "sympy/core/basic.py", "core/basic.py", "basic.py"}},
		{"src/main.rs", []string{"src/main.rs", "main.rs"}},
		{"./src/lib.rs", []string{"src/lib.rs", "lib.rs"}},
		{"Foo.java", []string{"Foo.java"}},
		{`C:\build\Api\OrdersController.cs`, []string{"build/Api/OrdersController.cs", "Api/OrdersController.cs", "OrdersController.cs"}},
		{"/venv/lib/python3.12/site-packages/click/core.py", []string{"click/core.py", "core.py"}},
		{"/app/node_modules/express/lib/router.js", []string{"express/lib/router.js", "lib/router.js", "router.js"}},
		{"/home/u/go/pkg/mod/github.com/go-chi/chi/v5@v5.0.12/mux.go", []string{"mux.go"}},
		{"http://localhost:3000/static/js/main.js?v=3#L2", []string{"static/js/main.js", "js/main.js", "main.js"}},
		{"webpack:///./src/App.jsx", []string{"src/App.jsx", "App.jsx"}},
		{"file:///home/u/app/a.mjs", []string{"home/u/app/a.mjs", "u/app/a.mjs", "app/a.mjs", "a.mjs"}},
		{"<stdin>", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Frame{File: tt.file}.PathSuffixes()); diff != "" {
			t.Errorf("PathSuffixes of %q (-want +got):\n%s", tt.file, diff)
		}
	}
}
