package engine

import (
	"errors"
	"fmt"
	"testing"
)

// TestReachableBoundsPlay walks every position reachable from small starts
// of the variants whose moves add heaps and checks the bound Playable relies
// on: no reachable position holds more heaps than reachable() says, and the
// bound is met by some line of play (so it is not loose).
func TestReachableBoundsPlay(t *testing.T) {
	for _, r := range []Rules{{Variant: Lasker}, {Variant: Lasker, Misere: true}, {Variant: Kayles}, {Variant: Kayles, Misere: true}} {
		_, g, err := r.game()
		if err != nil {
			t.Fatal(err)
		}
		gr := g.(grower)
		for _, start := range [][]int64{{1}, {2}, {3}, {5}, {7}, {0, 4}, {2, 3}, {1, 1, 4}, {3, 0, 3}} {
			p := Position{Heaps: start}
			bound := gr.reachable(p)
			most := 0
			seen := map[string]bool{}
			var walk func(p Position)
			walk = func(p Position) {
				k := fmt.Sprint(p.Heaps)
				if seen[k] {
					return
				}
				seen[k] = true
				most = max(most, len(p.Heaps))
				for _, m := range g.legal(p) {
					q, err := r.Apply(p, m)
					if err != nil {
						t.Fatalf("%s %v: %v: %v", r.Name(), p.Heaps, m, err)
					}
					walk(q)
				}
			}
			walk(p)
			if int64(most) != bound {
				t.Errorf("%s from %v: play reaches %d heaps at most, reachable says %d", r.Name(), start, most, bound)
			}
		}
	}
}

func TestPlayable(t *testing.T) {
	for _, c := range []struct {
		rules Rules
		heaps []int64
		ok    bool
	}{
		{Rules{Variant: Nim}, []int64{9999, 9999, 9999}, true},
		{Rules{Variant: Lasker}, []int64{5000, 4999}, true},
		{Rules{Variant: Lasker}, []int64{5000, 5000, 1}, false},
		{Rules{Variant: Lasker}, []int64{9999, 9999}, false},
		{Rules{Variant: Kayles}, []int64{9999, 1}, true},
		{Rules{Variant: Kayles}, []int64{9999, 2}, false},
	} {
		p, err := c.rules.Start(c.heaps)
		if err != nil {
			t.Fatalf("%s %v: Start: %v", c.rules.Name(), c.heaps, err)
		}
		err = c.rules.Playable(p)
		if c.ok && err != nil || !c.ok && !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s %v: Playable = %v, want ok=%v", c.rules.Name(), c.heaps, err, c.ok)
		}
	}
}
