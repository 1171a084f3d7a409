// Runs @toon-format/toon over JSON documents for `winnow bench shape`.
// stdin: {"dirs": [node_modules directories], "docs": [JSON texts]}.
// stdout: {"version", "module"} and, per document, {"toon", "decoded",
// "jsEqual"} or {"error"}; or {"error"} alone when the package is missing.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const dirs = [...input.dirs, ...(process.env.NODE_PATH || '').split(path.delimiter)].filter(Boolean);
const pkgDir = dirs.map((d) => path.join(d, '@toon-format', 'toon'))
  .find((p) => fs.existsSync(path.join(p, 'package.json')));
if (!pkgDir) {
  process.stdout.write(JSON.stringify({ error: `@toon-format/toon not found in ${dirs.join(', ') || 'any directory (give --toon-dir or set NODE_PATH)'}` }));
  process.exit(0);
}
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const dot = pkg.exports && pkg.exports['.'];
const entry = (typeof dot === 'string' ? dot : dot && (dot.import || dot.default)) || pkg.module || pkg.main;
const toon = await import(pathToFileURL(path.join(pkgDir, entry)).href);
const results = input.docs.map((text) => {
  try {
    const value = JSON.parse(text);
    const encoded = toon.encode(value);
    const decoded = JSON.stringify(toon.decode(encoded));
    return { toon: encoded, decoded, jsEqual: decoded === JSON.stringify(value) };
  } catch (e) {
    return { error: String((e && e.message) || e) };
  }
});
process.stdout.write(JSON.stringify({ version: pkg.version, module: pkgDir, node: process.version, results }));
