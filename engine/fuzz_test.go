package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

var gameSeeds = []string{
	"3 4 5", "nim misere 3-4-5", "subtraction k=3 10 12", "subtraction set=1,3,4 7 9", "21",
	"21 k=3 target=21 count=5", "fibonacci 20", "fibonacci 20 limit=4", "moore k=2 3 5 6",
	"wythoff 3 5", "lasker 4 7", "kayles 5 8", "greedy misere 0 0 0", "kayles misere 3 4",
	"", "nim", "3 x", "21 count=99", "-1", "subtraction set=,,", "1000000000000 1000000000001",
}

// FuzzParseGame: ParseGame never panics, and whatever it accepts formats to
// a canonical string that parses back to the same game.
func FuzzParseGame(f *testing.F) {
	for _, s := range gameSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, p, err := ParseGame(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("ParseGame(%q): error %v wraps neither ErrInvalid nor ErrTooLarge", s, err)
			}
			return
		}
		canon := FormatGame(r, p)
		r2, p2, err := ParseGame(canon)
		if err != nil {
			t.Fatalf("ParseGame(%q) ok, but its canonical form %q fails: %v", s, canon, err)
		}
		if !reflect.DeepEqual(r, r2) || !reflect.DeepEqual(p, p2) {
			t.Fatalf("%q → %q → %+v %+v, want %+v %+v", s, canon, r2, p2, r, p)
		}
		if again := FormatGame(r2, p2); again != canon {
			t.Fatalf("FormatGame not stable: %q then %q", canon, again)
		}
	})
}

// FuzzParseMove: ParseMove never panics on any text in any game, and a move
// it accepts formats to text that parses back to the same move.
func FuzzParseMove(f *testing.F) {
	for i, s := range []string{"B3", "AB3", "A2 C1", "B=2+3", "B4", "B4-5", "+3", "3", "", "ZZZZ9", "A-1", "B=+", "A99999999999999999999"} {
		f.Add(gameSeeds[i%12], s)
	}
	f.Fuzz(func(t *testing.T, game, s string) {
		r, p, err := ParseGame(game)
		if err != nil {
			return
		}
		m, err := r.ParseMove(p, s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseMove(%q): error %v does not wrap ErrInvalid", s, err)
			}
			return
		}
		text := r.FormatMove(p, m)
		m2, err := r.ParseMove(p, text)
		if err != nil {
			t.Fatalf("%q → %+v → %q, which fails: %v", s, m, text, err)
		}
		if !reflect.DeepEqual(m, m2) && !(m.Kind == Multi && r.FormatMove(p, m2) == text) {
			t.Fatalf("%q → %+v → %q → %+v", s, m, text, m2)
		}
		r.Apply(p, m) // must not panic
	})
}

// FuzzApply: the validator never panics, never changes its input, and a move
// it accepts leaves a valid position; JSON round-trips every move.
func FuzzApply(f *testing.F) {
	f.Add(0, false, []byte{3, 4, 5}, uint8(0), 1, int64(2), int64(0), int64(0))
	f.Add(3, true, []byte{5, 5, 1}, uint8(0), 0, int64(5), int64(0), int64(0))
	f.Add(6, false, []byte{3, 5, 6}, uint8(2), 0, int64(1), int64(0), int64(1))
	f.Add(7, false, []byte{7}, uint8(3), 0, int64(0), int64(3), int64(4))
	f.Add(8, true, []byte{8}, uint8(4), 0, int64(2), int64(3), int64(3))
	f.Add(5, false, []byte{3, 5}, uint8(1), 0, int64(3), int64(0), int64(0))
	f.Add(4, false, []byte{20}, uint8(0), 0, int64(3), int64(0), int64(0))
	f.Fuzz(func(t *testing.T, v int, misere bool, heaps []byte, kind uint8, heap int, take, a, b int64) {
		vs := Variants()
		r := Rules{Variant: vs[((v%len(vs))+len(vs))%len(vs)], Misere: misere}
		hs := make([]int64, len(heaps))
		for i, h := range heaps {
			hs[i] = int64(h % 40)
		}
		p := Position{Heaps: hs}
		if r.Variant == Fibonacci && len(hs) > 0 {
			p.Limit = a
		}
		m := Move{Kind: MoveKind(kind % 6), Heap: heap, Take: take, Parts: [2]int64{a, b}}
		if m.Kind == Multi {
			m.Takes = make([]int64, len(hs))
			for i := range m.Takes {
				m.Takes[i] = (take >> (8 * (i % 8))) & 3
			}
		}
		before := clonePos(p)
		q, err := r.Apply(p, m)
		if !reflect.DeepEqual(p, before) {
			t.Fatalf("Apply changed its input: %+v → %+v", before, p)
		}
		if err == nil {
			if err := r.Check(q); err != nil && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Apply(%+v, %+v) = %+v, an invalid position: %v", p, m, q, err)
			}
			var total, totalQ int64
			for _, h := range p.Heaps {
				total += h
			}
			for _, h := range q.Heaps {
				totalQ += h
			}
			if totalQ > total || (totalQ == total && m.Kind != Split) {
				t.Fatalf("Apply(%+v, %+v) = %+v: the game did not shrink", p, m, q)
			}
		}
		b1, err := json.Marshal(m)
		if err == nil && m.Kind <= Knock {
			var back Move
			if err := json.Unmarshal(b1, &back); err != nil {
				t.Fatalf("Unmarshal(%s): %v", b1, err)
			}
		}
	})
}
