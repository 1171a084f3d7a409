package retrieve

import "strings"

// Members: the methods of a class the task names, by the words they
// share with the task. A task names the class a user sees (`CDS`,
// `Sphinx`, `SlicedLowLevelWCS`) far more often than the method that
// goes wrong, and the class's name, matched, says nothing of its
// methods: each matches the task's words only as well as its own text
// does, as the methods of every other class do. The memberTop methods
// of a named class that match the task best share the class's mention
// score in proportion to the square of their lexical scores: of a class
// the task names, the methods that read like the task rise with it, the
// best most, and one method well ahead of the others takes nearly all
// of it, while methods the words cannot tell apart (get and post of a
// client, for "requests") split it.
//
// Only a class named surely enough counts (a mention score of at least
// memberMinMention: written as code, or in the title, and its name
// shared by few definitions): a capitalised word of prose ("Table",
// "Card") may be a class or the start of a sentence, and lifting its
// methods lost function Acc@5 on the dev set.
const (
	memberTop        = 3   // the methods of a named class that are lifted
	memberMinMention = 0.6 // the least mention score of a class whose methods are lifted
)

// members scores the methods of the classes the task names.
func (r *ranker) members() {
	if r.par.Weights[FeatMember] == 0 {
		return
	}
	mention, lex, feat := r.feat[FeatMention], r.feat[FeatLexical], r.feat[FeatMember]
	for d, m := range mention {
		def := &r.c.defs[d]
		if m < memberMinMention || !def.Kind.IsType() || def.file < 0 {
			continue
		}
		best := r.bestMembers(int32(d))
		if len(best) == 0 {
			continue
		}
		top, sum := lex[best[0]], 0.0
		for _, o := range best {
			rel := lex[o] / top
			sum += rel * rel
		}
		for _, o := range best {
			rel := lex[o] / top
			feat[o] = max(feat[o], min(m*rel*rel/sum, 1))
		}
	}
}

// bestMembers returns the memberTop methods of class d with the best
// lexical scores, best first; methods that share no word with the task
// are left out.
func (r *ranker) bestMembers(d int32) []int32 {
	def, lex := &r.c.defs[d], r.feat[FeatLexical]
	prefix := def.Qual + "."
	var best []int32
	for _, o := range r.c.files[def.file].defs {
		od := &r.c.defs[o]
		if !od.Kind.IsCallable() || lex[o] == 0 || !strings.HasPrefix(od.Qual, prefix) || strings.Contains(od.Qual[len(prefix):], ".") {
			continue
		}
		if len(best) == memberTop && lex[o] <= lex[best[memberTop-1]] {
			continue
		}
		if len(best) < memberTop {
			best = append(best, o)
		}
		i := len(best) - 1
		for ; i > 0 && lex[best[i-1]] < lex[o]; i-- {
			best[i] = best[i-1]
		}
		best[i] = o
	}
	return best
}
