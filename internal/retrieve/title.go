package retrieve

// The title, when the task's code is the user's own. An issue's title
// says in a line what is wrong ("Cross-references don't work in
// property's type annotations"); its body shows it. When the body's
// code calls the project (Poly(x).degree(), xr.where, from sympy import
// Mod) its words are the project's and the code feature follows them
// in. When none of it reaches a definition of the project, the code is
// the user's: a conf.py of the quickstart template, the classes of the
// user's app (Square, with its width and height), a shell session
// building their docs. Its words then outweigh the title's many times
// over (the body is long, and code terms weigh more than prose) and
// lead to whatever shares them: the LaTeX writer's TableCell.width,
// the HTML builder that reads html_static_path. So, in that case only,
// every definition also scores BM25F over the title's words alone,
// scaled to [0, 1], as the title feature: the words the author chose to
// sum the issue up, at a weight the body's length does not dilute.
//
// A task without fenced code (a few lines of prose, where the title is
// already a large share of the words) and a task whose code reaches the
// project get nothing: on the dev set the feature everywhere cost fold
// A (sympy, xarray) 8.7 points at weight 1, where sessions calling the
// project say more than titles such as "is_zero is incorrect on complex
// integer"; with the code feature off (weight 0), no code is read and
// every task with a fenced block gets it.

// titleWords sets FeatTitle when the task has fenced code and none of
// its uses reached a definition (codeuse.go).
func (r *ranker) titleWords() {
	if r.par.Weights[FeatTitle] == 0 || r.q.blocks == 0 || r.codeReached || len(r.q.titleTerms) == 0 {
		return
	}
	feat := r.feat[FeatTitle]
	for _, t := range r.q.titleTerms { // sorted: the same sums in the same order, run after run
		r.c.defText.score(t, 1, feat)
	}
	scaleMax(feat)
}
