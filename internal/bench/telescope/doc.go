// Package telescope is the benchmark of the telescope behind `winnow bench telescope`: for
// each tree it builds a code index in a temporary directory, then measures
//
//   - compression: the tokens (o200k) of the L1 abstracts against the raw source, for code
//     files and for every file;
//   - signature coverage: every function, method, constructor and class the index holds has
//     its signature (whitespace-normalised) in its file's L1 text;
//   - the cold build (an empty store) against warm builds (a new engine and a reopened store,
//     as a second process would have), as a ratio;
//   - incrementality: after one file gets a newline appended, the nodes a rebuild computes,
//     against the expected one unit and its ancestors.
//
// The store is a SQLite file in the temporary directory. The touched file gets its bytes and
// modification time back afterwards, also on error or interrupt.
package telescope
