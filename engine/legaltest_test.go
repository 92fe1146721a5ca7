package engine

import "testing"

// TestLegalTestAgreesWithValidate checks every variant's fast legality test
// (legalTester) against validate, over every position of up to 4 heaps of
// up to 5 and every move of each kind with heap numbers and amounts reaching
// past the board: the bot's hold-out and random moves rely on it.
func TestLegalTestAgreesWithValidate(t *testing.T) {
	for _, v := range Variants() {
		for _, misere := range []bool{false, true} {
			r, g, err := Rules{Variant: v, Misere: misere}.game()
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := g.(legalTester); !ok {
				continue
			}
			tested := 0
			for n := 1; n <= 4; n++ {
				eachHeaps(n, 5, func(h []int64) {
					p := Position{Heaps: h}
					if g.check(p) != nil {
						return
					}
					legal := legalTest(g, p)
					for _, m := range probeMoves(n, 5) {
						want := g.validate(p, m) == nil
						if got := legal(m); got != want {
							t.Fatalf("%s %v %+v: legalTest says %v, validate %v", r.Name(), h, m, got, want)
						}
						tested++
					}
				})
			}
			if tested == 0 {
				t.Fatalf("%s: no move tested", r.Name())
			}
		}
	}
}

// probeMoves are moves of every kind on heaps -1..n and amounts -1..max+1.
func probeMoves(n int, max int64) []Move {
	var ms []Move
	for i := -1; i <= n; i++ {
		for t := int64(-1); t <= max+1; t++ {
			ms = append(ms,
				Move{Kind: Take, Heap: i, Take: t},
				Move{Kind: Diagonal, Heap: i, Take: t},
				Move{Kind: Split, Heap: i, Parts: [2]int64{t, 1}},
				Move{Kind: Knock, Heap: i, Take: 1, Parts: [2]int64{t, 0}})
		}
	}
	return ms
}
