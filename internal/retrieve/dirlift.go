package retrieve

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
	dirs := make([]top2, r.c.ndirs)
	for _, f := range out {
		t := &dirs[r.c.dir[f.file]]
		switch {
		case f.Score > t.a:
			t.a, t.b = f.Score, t.a
		case f.Score > t.b:
			t.b = f.Score
		}
	}
	for i := range out {
		t := dirs[r.c.dir[out[i].file]]
		other := t.a
		if out[i].Score == t.a {
			other = t.b
		}
		lift := share * other
		out[i].parts[partDir] += lift / max(out[i].prior, 1e-9)
		out[i].Score += lift
	}
}
