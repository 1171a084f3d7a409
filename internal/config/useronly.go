package config

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// A userSetting is a setting that only the user's own configuration file may make: a
// repository's .winnow.toml comes with whatever was cloned, and must not be able to run a
// program, send the user's keys or code anywhere, or make winnow read or write outside the
// repository. [Load] does not decode these keys from the repository file at all (so they
// are neither validated nor shown as effective), and warns once for each.
type userSetting struct {
	key string // dotted, as the schema spells it
	// table says key is a table each of whose keys is a setting of its own (one warning
	// each); otherwise key is one setting, an [[upstream]] entry counting as one.
	table bool
	// repoMay, if set, lists the values a repository may still give the key, and mayText
	// says what they are in the warning.
	repoMay []any
	mayText string
	// why, if set, tells in the warning why a repository cannot make the setting.
	why string
}

// noCalls is why a repository cannot make the settings of [tools] tables that make the
// gateway call tools.
const noCalls = "a cloned repository must not make the gateway call a tool the agent did not call"

// userOnly lists every setting a repository file cannot make. README.md lists the same keys
// (TestREADMEListsUserOnly keeps them equal).
var userOnly = []userSetting{
	{key: "upstream"},               // runs a program, or sends the user's tokens to a server
	{key: "proxy", table: true},     // sends the user's API keys and conversations
	{key: "llm", table: true},       // sends the user's API key and code to a model
	{key: "store", table: true},     // sends digests of the user's code to a cache that answers for them
	{key: "gateway", table: true},   // shapes the results of the user's own upstreams
	{key: "telemetry", table: true}, // whether and where the user's sessions are recorded
	{key: "index.location", repoMay: []any{LocationRepo}, // "cache" writes the index outside the repository
		mayText: fmt.Sprintf("%q, its own %s/ directory", LocationRepo, repoIndexDir)},
	{key: "index.cache_dir"}, // so does this
	// A [tools."<name>"] table ("*" stands for every name) may describe a tool, but not
	// have the gateway call one ahead of the agent.
	{key: "tools.*.follow_up", why: noCalls},
	{key: "tools.*.speculate", repoMay: []any{false}, mayText: "false", why: noCalls},
	{key: "tools.*.side_effect", repoMay: unsafeSideEffects(), mayText: quotedList(toStrings(unsafeSideEffectNames())), why: noCalls},
}

// unsafeSideEffects lists the side effects of tools that are never run ahead of the agent.
func unsafeSideEffects() []any {
	var out []any
	for _, s := range unsafeSideEffectNames() {
		out = append(out, string(s))
	}
	return out
}

func unsafeSideEffectNames() []toolvalue.SideEffect {
	var out []toolvalue.SideEffect
	for _, s := range toolvalue.SideEffects {
		if !s.Safe() {
			out = append(out, s)
		}
	}
	return out
}

// UserOnly returns the keys only the user's configuration file may set, dotted; a table
// ("store") stands for every key in it, and "*" in "tools.*.follow_up" for every tool
// table. A repository's .winnow.toml may still set index.location to "repo",
// tools.*.speculate to false, and tools.*.side_effect to a side effect that is never run
// ahead of the agent.
func UserOnly() []string {
	keys := make([]string, len(userOnly))
	for i, s := range userOnly {
		keys[i] = s.key
	}
	return keys
}

// lookupUserOnly returns the user-only setting whose key is the dotted key, or nil.
func lookupUserOnly(key string) *userSetting {
	for i := range userOnly {
		if userOnly[i].key == key {
			return &userOnly[i]
		}
	}
	return nil
}

// userOnlyUnder reports whether a user-only setting lies strictly inside the table key.
func userOnlyUnder(key string) bool {
	for _, s := range userOnly {
		if strings.HasPrefix(s.key, key+".") {
			return true
		}
	}
	return false
}

// A droppedKey is a user-only setting found in a repository file, as the file spells it.
type droppedKey struct {
	key     toml.Key
	setting *userSetting
}

// repoDecoder decodes a repository file over a Config as toml.Decode would, walking by
// hand the tables that hold user-only settings (the top level and [index]) so that those are
// never decoded: a value of the wrong type there is not an error either.
type repoDecoder struct {
	md      toml.MetaData
	unknown map[string]bool // keys of the walked tables that the schema does not have
	dropped []droppedKey
}

// decodeRepo decodes doc over c, leaving out the user-only settings, and returns the keys
// the schema does not have (as [toml.MetaData.Undecoded] would) and the settings left out,
// both as the document spells them and in document order.
func decodeRepo(doc string, c *Config) (md toml.MetaData, undecoded []toml.Key, dropped []droppedKey, err error) {
	var top map[string]toml.Primitive
	if md, err = toml.Decode(doc, &top); err != nil {
		return md, nil, nil, err
	}
	d := &repoDecoder{md: md, unknown: map[string]bool{}}
	if err := d.table(top, reflect.ValueOf(c).Elem(), nil, ""); err != nil {
		return md, nil, nil, err
	}
	left := make(map[string]bool)
	for _, k := range d.md.Undecoded() {
		left[k.String()] = true
	}
	for _, k := range d.md.Keys() {
		if (left[k.String()] || d.unknown[k.String()]) && !d.isDropped(k) {
			undecoded = append(undecoded, k)
		}
	}
	return d.md, undecoded, d.dropped, nil
}

// table decodes the keys of tbl, the table at raw in the document (schema spells it
// schema), into the struct dst, in sorted order so that the first error is always the same.
func (d *repoDecoder) table(tbl map[string]toml.Primitive, dst reflect.Value, raw toml.Key, schema string) error {
	for _, name := range slices.Sorted(maps.Keys(tbl)) {
		rawKey := append(raw[:len(raw):len(raw)], name)
		f, tag, ok := fieldByTOMLName(dst, name)
		if !ok {
			d.unknown[rawKey.String()] = true
			continue
		}
		key := tag
		if schema != "" {
			key = schema + "." + tag
		}
		if s := lookupUserOnly(key); s != nil && !d.repoMay(s, tbl[name]) {
			d.dropped = append(d.dropped, droppedKey{key: rawKey, setting: s})
			continue
		}
		if userOnlyUnder(key) && (f.Kind() == reflect.Struct || f.Kind() == reflect.Map) && d.isTable(tbl[name]) {
			var sub map[string]toml.Primitive
			if err := d.md.PrimitiveDecode(tbl[name], &sub); err != nil {
				return err
			}
			if f.Kind() == reflect.Map {
				if err := d.mapTable(sub, f, rawKey, key); err != nil {
					return err
				}
				continue
			}
			if err := d.table(sub, f, rawKey, key); err != nil {
				return err
			}
			continue
		}
		if err := d.md.PrimitiveDecode(tbl[name], f.Addr().Interface()); err != nil {
			return err
		}
	}
	return nil
}

// mapTable decodes the tables of tbl, the table at raw in the document (schema spells it
// schema), into the map dst of structs, each by table (its keys spelled schema.*.<key>);
// an element that is not a table is decoded as it is, for the decoder's own error.
func (d *repoDecoder) mapTable(tbl map[string]toml.Primitive, dst reflect.Value, raw toml.Key, schema string) error {
	if dst.IsNil() {
		dst.Set(reflect.MakeMap(dst.Type()))
	}
	for _, name := range slices.Sorted(maps.Keys(tbl)) {
		elem := reflect.New(dst.Type().Elem()).Elem()
		if elem.Kind() == reflect.Struct && d.isTable(tbl[name]) {
			var sub map[string]toml.Primitive
			if err := d.md.PrimitiveDecode(tbl[name], &sub); err != nil {
				return err
			}
			if err := d.table(sub, elem, append(raw[:len(raw):len(raw)], name), schema+".*"); err != nil {
				return err
			}
		} else if err := d.md.PrimitiveDecode(tbl[name], elem.Addr().Interface()); err != nil {
			return err
		}
		dst.SetMapIndex(reflect.ValueOf(name), elem)
	}
	return nil
}

// isTable reports whether p is a table. Anything else is decoded into the struct as it is,
// for the decoder's own error: decoded into a map, it would be silently dropped.
func (d *repoDecoder) isTable(p toml.Primitive) bool {
	var v any // decoding into an interface marks no key as decoded
	if err := d.md.PrimitiveDecode(p, &v); err != nil {
		return false
	}
	_, ok := v.(map[string]any)
	return ok
}

// repoMay reports whether the value p of the user-only setting s is one a repository may
// give it.
func (d *repoDecoder) repoMay(s *userSetting, p toml.Primitive) bool {
	var v any
	return s.repoMay != nil && d.md.PrimitiveDecode(p, &v) == nil && slices.Contains(s.repoMay, v)
}

// isDropped reports whether k is a dropped setting or inside one.
func (d *repoDecoder) isDropped(k toml.Key) bool {
	for _, dk := range d.dropped {
		if hasKeyPrefix(k, dk.key) {
			return true
		}
	}
	return false
}

func hasKeyPrefix(k, prefix toml.Key) bool {
	return len(k) >= len(prefix) && slices.Equal(k[:len(prefix)], prefix)
}

// fieldByTOMLName returns the field of the struct v that the TOML decoder fills from the key
// name, and the field's own name: the exact name first, else one that differs only in case,
// as the decoder matches them. A key with no field is not found.
func fieldByTOMLName(v reflect.Value, name string) (reflect.Value, string, bool) {
	fold := -1
	t := v.Type()
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		switch {
		case tag == "" || tag == "-" || !t.Field(i).IsExported():
		case tag == name:
			return v.Field(i), tag, true
		case fold < 0 && strings.EqualFold(tag, name):
			fold = i
		}
	}
	if fold < 0 {
		return reflect.Value{}, "", false
	}
	tag, _, _ := strings.Cut(t.Field(fold).Tag.Get("toml"), ",")
	return v.Field(fold), tag, true
}

// userOnlyWarnings returns one warning per setting of dropped, in document order: each key
// set directly in a dropped table (a subtable or inline table counts as one), each dropped
// key, and a dropped table written as a plain value. userFile is where the user can make
// the setting instead.
func userOnlyWarnings(doc, file, userFile string, md toml.MetaData, dropped []droppedKey) []Warning {
	if len(dropped) == 0 {
		return nil
	}
	lines := make(map[string][]int) // key → line of each occurrence, in order
	for _, kl := range keyLines(doc) {
		lines[kl.key] = append(lines[kl.key], kl.line)
	}
	listed := make(map[string]bool, len(md.Keys()))
	for _, k := range md.Keys() {
		listed[k.String()] = true
	}
	seen := make(map[string]int) // key → occurrences so far
	var warns []Warning
	for _, k := range md.Keys() {
		name := k.String()
		n := seen[name]
		seen[name]++
		s := settingOf(k, dropped, listed, md.Type(k...) == "Hash")
		if s == nil {
			continue
		}
		line := 0
		if n < len(lines[name]) {
			line = lines[name][n]
		}
		warns = append(warns, Warning{File: file, Line: line, Key: name, Msg: userOnlyMessage(name, s, userFile)})
	}
	return warns
}

// settingOf returns the user-only setting k is to be warned about as, or nil: k is a
// dropped key that is not a table, or a dropped table written as a value (not a table,
// isTable), or a key inside a dropped setting that no other listed key inside it encloses
// (the decoder lists no implicit table of a dotted key).
func settingOf(k toml.Key, dropped []droppedKey, listed map[string]bool, isTable bool) *userSetting {
	for _, d := range dropped {
		if !hasKeyPrefix(k, d.key) {
			continue
		}
		if len(k) == len(d.key) {
			if !d.setting.table || !isTable {
				return d.setting
			}
			return nil // [store]: its keys are the settings
		}
		// Inside the setting: warn at the outermost key the document lists. An [[upstream]]
		// entry is listed itself, its keys are not warned about again; a dotted key through a
		// dropped value (cache_dir.x = 1) lists only itself, and is.
		from := len(d.key)
		if d.setting.table {
			from++ // [store] is listed but not warned about: its keys are the settings
		}
		for i := from; i < len(k); i++ {
			if listed[k[:i].String()] {
				return nil
			}
		}
		return d.setting
	}
	return nil
}

func userOnlyMessage(key string, s *userSetting, userFile string) string {
	may := "a repository cannot set it"
	if s.repoMay != nil {
		may = "a repository may only set it to " + s.mayText
	}
	if s.why != "" {
		may += ": " + s.why
	}
	return fmt.Sprintf("%s is a user-only setting; %s (ignored; set it in %s)", key, may, userFile)
}

// displayPath returns path with the home directory written as "~", for messages.
func displayPath(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return path
	}
	if rel, err := filepath.Rel(home, path); err == nil && filepath.IsLocal(rel) {
		return "~/" + filepath.ToSlash(rel)
	}
	return path
}
