package telescope

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// A siteCategory is one kind of security-relevant code and the pattern that finds it. The
// patterns look for the APIs and words of each category across the common languages; they
// find sites to read, they do not judge them.
type siteCategory struct {
	name string
	re   *lazyRegexp
}

var siteCategories = []siteCategory{
	{"auth", lazy(`(?i)\b(auth\w*|login|logout|passw(or)?d|passwd|credential\w*|session\w*|jwt|oauth\w*|bearer|csrf|xsrf|api[_-]?key|secret\w*|permission\w*|authori[sz]\w*|acl|rbac|is_?admin|sudo)\b`)},
	{"crypto", lazy(`(?i)\b(crypto\w*|cipher\w*|aes|rsa|ecdsa|ed25519|hmac|sha1|sha256|sha512|md5|bcrypt|scrypt|pbkdf2|argon2|encrypt\w*|decrypt\w*|nonce|x509|tls|ssl|certificate|private_?key|signature|random\.random|math/rand|secrets\.token\w*)\b`)},
	{"input", lazy(`(?i)\b(validat\w*|saniti[sz]\w*|escape\w*|unescape\w*|untrusted|user_?input|request\.(form|args|values|json|body|query|params|files|get_json)|req\.(body|query|params)|r\.(FormValue|URL\.Query|PostForm)|getParameter|input\(|sys\.argv|os\.Args|flag\.\w+\()`)},
	{"file", lazy(`\b(open\(|os\.(Open|OpenFile|Create|ReadFile|WriteFile|Remove|RemoveAll|Rename|Chmod|Chown|Mkdir\w*|Symlink|Link)|ioutil\.\w+|filepath\.(Join|Abs|EvalSymlinks)|os\.path\.join|shutil\.\w+|pathlib|fopen|fwrite|unlink\(|tempfile|os\.remove|os\.makedirs|chmod\(|readFileSync|writeFileSync|fs\.\w+)`)},
	{"network", lazy(`\b(http\.(Get|Post|Do|NewRequest\w*|ListenAndServe\w*|Client|Server)|net\.(Dial\w*|Listen\w*)|requests\.(get|post|put|delete|request|Session)|urllib\w*|urlopen|socket\.\w+|fetch\(|axios|XMLHttpRequest|HttpClient|curl_\w+|grpc\.\w+|websocket\w*)`)},
	{"process", lazy(`\b(exec\.Command\w*|os/exec|syscall\.Exec|subprocess\.\w+|os\.system|os\.popen|popen\(|Popen|shell\s*=\s*True|Runtime\.getRuntime|ProcessBuilder|child_process|spawn\(|execSync|system\(|eval\(|exec\(|compile\()`)},
	{"sql", lazy(`(?i)(\b(select\s+[\w*,\s.]+\s+from|insert\s+into|update\s+\w+\s+set|delete\s+from|drop\s+table|create\s+table)\b|\.(QueryContext|QueryRowContext|ExecContext|Query|QueryRow|Exec|execute|executemany|executescript|raw)\(|cursor\(|sqlalchemy|\bsql\.Open\b)`)},
	{"deserialise", lazy(`\b(pickle\.\w+|cPickle|marshal\.loads|yaml\.(load|unsafe_load)\(|yaml\.Unmarshal|unserialize|ObjectInputStream|readObject|BinaryFormatter|gob\.(NewDecoder|Decode)|json\.(Unmarshal|NewDecoder|loads|load)|xml\.(Unmarshal|NewDecoder)|ElementTree|lxml|shelve|jsonpickle|dill\.)`)},
}

// siteContext is how many lines around a site are kept.
const siteContext = 2

// maxSites bounds the sites listed for one unit; the headline still counts them all.
const maxSites = 40

// A site is one matching line and the categories it matched.
type site struct {
	line int
	cats []string
}

// securitySites is code_security: every line matching a category (auth, crypto, input
// validation, file, network and process IO, SQL, deserialisation), with siteContext lines
// around it and the definition it is in; overlapping windows are merged. Comments count too:
// "# TODO: check auth" is worth reading in an audit.
func securitySites(ctx context.Context, u *Unit) (Abstract, error) {
	if u.Kind != UnitCode {
		return byUnitKind(ctx, u)
	}
	syms, err := u.Symbols(ctx)
	if err != nil {
		return Abstract{}, err
	}
	lines := u.Lines()
	var sites []site
	counts := map[string]int{}
	for i, l := range lines {
		if len(l) > 1000 {
			continue // data, not code
		}
		var cats []string
		for _, c := range siteCategories {
			if c.re.MatchString(l) {
				cats = append(cats, c.name)
				counts[c.name]++
			}
		}
		if len(cats) > 0 {
			sites = append(sites, site{line: i + 1, cats: cats})
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s): %s\n", u.Path, u.Lang, plural(len(lines), "line", "lines"), siteSummary(len(sites), counts))
	if len(sites) == 0 {
		return Abstract{Text: b.String(), Headline: "no security-relevant sites", Parts: codeParts(syms, lines)}, nil
	}
	shown := sites[:min(len(sites), maxSites)]
	for _, w := range windows(shown, len(lines)) {
		fmt.Fprintf(&b, "L%d-%d [%s]%s\n", w.start, w.end, strings.Join(w.cats, ","), enclosing(syms, w.first))
		for n := w.start; n <= w.end; n++ {
			fmt.Fprintf(&b, "%d| %s\n", n, clip(strings.TrimRight(lines[n-1], " \t"), 200))
		}
	}
	if len(sites) > len(shown) {
		fmt.Fprintf(&b, "… %d more sites after line %d; drill down for the source\n", len(sites)-len(shown), shown[len(shown)-1].line)
	}
	return Abstract{Text: b.String(), Headline: siteSummary(len(sites), counts), Parts: codeParts(syms, lines)}, nil
}

func siteSummary(n int, counts map[string]int) string {
	if n == 0 {
		return "no security-relevant sites"
	}
	var cs []string
	for _, c := range siteCategories {
		if counts[c.name] > 0 {
			cs = append(cs, fmt.Sprintf("%s %d", c.name, counts[c.name]))
		}
	}
	return fmt.Sprintf("%s (%s)", plural(n, "security-relevant site", "security-relevant sites"), strings.Join(cs, ", "))
}

// A window is a run of lines around one or more sites.
type window struct {
	start, end, first int
	cats              []string
}

// windows merges the context windows of sites that overlap or touch.
func windows(sites []site, nlines int) []window {
	var out []window
	for _, s := range sites {
		start, end := max(1, s.line-siteContext), min(nlines, s.line+siteContext)
		if k := len(out) - 1; k >= 0 && start <= out[k].end+1 {
			out[k].end = max(out[k].end, end)
			out[k].cats = union(out[k].cats, s.cats)
			continue
		}
		out = append(out, window{start: start, end: end, first: s.line, cats: s.cats})
	}
	return out
}

func union(a, b []string) []string {
	for _, x := range b {
		found := false
		for _, y := range a {
			found = found || x == y
		}
		if !found {
			a = append(a, x)
		}
	}
	sort.Strings(a)
	return a
}

// enclosing names the innermost definition holding line, as " in <signature>".
func enclosing(syms []symbol.Symbol, line int) string {
	best := -1
	for i, s := range syms {
		if s.Span.StartLine <= line && line <= s.Span.EndLine && listed(s.Kind) {
			if best < 0 || s.Span.Lines() <= syms[best].Span.Lines() {
				best = i
			}
		}
	}
	if best < 0 {
		return ""
	}
	sig := firstLine(syms[best].Signature)
	if sig == "" {
		sig = syms[best].Kind.String() + " " + syms[best].Name
	}
	return " in " + clip(sig, 120)
}
