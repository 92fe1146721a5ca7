package engine

import (
	"slices"
	"testing"
)

// TestCountedPhrasesSingular reaches each phrase that counts heaps, moves
// or knocks with a count of 1 through a real hint and checks its English
// is singular: "1 heap has", not "1 heaps share".
func TestCountedPhrasesSingular(t *testing.T) {
	for _, tc := range []struct {
		game string
		want []string // the verdict, then steps it must include
	}{
		{"greedy 3 5 2", []string{
			"Winning: 1 heap has the largest size 5, an odd number.",
			"Here 1 heap has the largest size 5.",
		}},
		{"greedy misere 1", []string{"Losing: only 1 heap of 1 is left; you will take the last one."}},
		{"nim misere 1", []string{
			"Losing: only 1 heap of 1 is left; in misère play you will take the last one.",
			"Every heap holds 0 or 1 and 1 heap holds 1: the player to move takes the last one and loses.",
		}},
		{"lasker misere 1", []string{
			"Losing: only 1 heap of 1 is left; in misère play you will take the last one.",
			"Misère play: no heap has 2 or more, so the XOR no longer decides; the player who takes the last token loses. With 1 heap of 1, the player to move loses: the last token will be theirs.",
		}},
		{"moore misere k=2 1", []string{"Losing: only 1 heap of 1 is left, and 1 is 1 mod 3."}},
		{"moore k=1 3 4", []string{
			"Winning: 1 heap has the 4's bit set, which is not 0 mod 2.",
			"Write the heaps in binary and count, for each bit, how many heaps have it set; a move may change only 1 heap.",
		}},
		{"moore k=2 3 4", []string{
			"Winning: 1 heap has the 4's bit set, which is not 0 mod 3.",
			"Write the heaps in binary and count, for each bit, how many heaps have it set; a move may change up to 2 heaps.",
		}},
		{"kayles misere 1 2", []string{
			"Winning: an exhaustive search finds 1 of your knocks leaves your opponent lost.",
			"The search found that the player to move wins: 1 of the possible knocks leads to a position where every reply loses.",
		}},
		{"kayles misere 3", []string{
			"Winning: an exhaustive search finds 2 of your knocks leave your opponent lost.",
			"The search found that the player to move wins: 2 of the possible knocks lead to a position where every reply loses.",
		}},
		{"subtraction misere k=3 1", []string{"Losing: every heap's value is 0 or 1 and 1 of them is 1."}},
	} {
		r, p, err := ParseGame(tc.game)
		if err != nil {
			t.Fatalf("%s: %v", tc.game, err)
		}
		h, err := r.Hint(p)
		if err != nil {
			t.Fatalf("%s: %v", tc.game, err)
		}
		if got := h.Verdict.String(); got != tc.want[0] {
			t.Errorf("%s: verdict %q, want %q", tc.game, got, tc.want[0])
		}
		var steps []string
		for _, s := range h.Explanation.Steps {
			steps = append(steps, s.String())
		}
		for _, w := range tc.want[1:] {
			if !slices.Contains(steps, w) {
				t.Errorf("%s: no step %q among\n%q", tc.game, w, steps)
			}
		}
	}
	// Every variant has a verdict of its own today; the fallback verdict
	// counts in the singular too, for the next variant.
	for n, want := range map[int]string{1: "Winning: 1 of your moves leaves your opponent lost.", 2: "Winning: 2 of your moves leave your opponent lost."} {
		if got := P(pVerdictWinningCount, "Count", n).String(); got != want {
			t.Errorf("winning count %d: %q, want %q", n, got, want)
		}
	}
}
