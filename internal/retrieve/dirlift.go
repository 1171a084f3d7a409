package retrieve

import "path"

// siblingLift adds to each file's score DirShare of the best score of
// another file in its directory: the files a fix spans are most often
// neighbours (a package's module and its importer, its typehints), and
// a directory with one strong file is likelier to hold a second.
func (r *ranker) siblingLift(out []RankedFile) {
	share := r.par.DirShare
	if share == 0 || r.cap == nil {
		return // a second-stage lift: it fills the places below the leader
	}
	type top2 struct{ a, b float64 }
	dirs := make(map[string]top2)
	for _, f := range out {
		d := path.Dir(f.Path)
		t := dirs[d]
		switch {
		case f.Score > t.a:
			t.a, t.b = f.Score, t.a
		case f.Score > t.b:
			t.b = f.Score
		}
		dirs[d] = t
	}
	for i := range out {
		t := dirs[path.Dir(out[i].Path)]
		other := t.a
		if out[i].Score == t.a {
			other = t.b
		}
		lift := share * other
		out[i].parts[partDir] += lift / max(out[i].prior, 1e-9)
		out[i].Score += lift
	}
}
