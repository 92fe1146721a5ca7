package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// everyRules is every variant in both conventions with the settings each
// takes at a few values.
func everyRules(t *testing.T) []Rules {
	t.Helper()
	var out []Rules
	for _, v := range Variants() {
		for _, misere := range []bool{false, true} {
			base, err := Rules{Variant: v, Misere: misere}.Normalize()
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			out = append(out, base)
			for _, opt := range []struct {
				name string
				vals []int64
			}{{"k", []int64{2}}, {"k", []int64{3}}, {"set", []int64{1, 3, 4}}, {"target", []int64{10}}} {
				if r, err := base.With(opt.name, opt.vals...); err == nil {
					if r, err := r.Normalize(); err == nil {
						out = append(out, r)
					}
				}
			}
		}
	}
	return out
}

// roundTrips checks that v, encoded by encoding/json and decoded into a
// fresh T, comes back as it was: what the store writes, it reads back.
func roundTrips[T any](t *testing.T, v T) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%+v: %v", v, err)
	}
	var back T
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, v) {
		t.Fatalf("%+v encodes as %s, which decodes as %+v (%v)", v, b, back, err)
	}
	return b
}

// TestJSONRoundTrip walks every position reachable from every opening of up
// to 3 heaps of up to 5 (6 in all for Lasker and Kayles, whose splits
// multiply the positions), in every variant, and checks that each rules,
// position and legal move comes back from its JSON unchanged.
func TestJSONRoundTrip(t *testing.T) {
	positions, moves := 0, 0
	for _, r := range everyRules(t) {
		roundTrips(t, r)
		seen := map[string]bool{}
		var walk func(p Position)
		walk = func(p Position) {
			b := roundTrips(t, p)
			if seen[string(b)] {
				return
			}
			seen[string(b)] = true
			positions++
			for _, m := range r.Legal(p) {
				roundTrips(t, m)
				moves++
				q, err := r.Apply(p, m)
				if err != nil {
					t.Fatalf("%s %+v %+v: %v", r.Name(), p, m, err)
				}
				walk(q)
			}
		}
		openings := [][]int64{nil}
		for n := 1; n <= 3; n++ {
			eachHeaps(n, 5, func(h []int64) { openings = append(openings, h) })
		}
		for _, h := range openings {
			var total int64
			for _, x := range h {
				total += x
			}
			if (r.Variant == Lasker || r.Variant == Kayles) && total > 6 {
				continue
			}
			if p, err := r.Start(h); err == nil {
				walk(p)
			}
		}
		if len(seen) == 0 {
			t.Fatalf("%s: no position", r.Name())
		}
	}
	t.Logf("%d positions, %d moves", positions, moves)
}

// TestStoredShapes pins the JSON of rules and positions the store has kept
// since its first schema (moves: TestMoveJSON): files written by earlier
// releases must still read, and read the same.
func TestStoredShapes(t *testing.T) {
	for _, tt := range []struct {
		v    any
		json string
	}{
		{Position{Heaps: []int64{3, 4, 5}}, `{"heaps":[3,4,5]}`},
		{Position{Heaps: []int64{8}, Limit: 3}, `{"heaps":[8],"limit":3}`},
		{Position{Heaps: []int64{}}, `{"heaps":[]}`},
		{Position{}, `{"heaps":null}`},
		{Rules{Variant: Nim}, `{"variant":"nim","misere":false}`},
		{Rules{Variant: Subtraction, Misere: true, K: 3, Set: []int{1, 3}, Target: 21}, `{"variant":"subtraction","misere":true,"k":3,"set":[1,3],"target":21}`},
		{Move{Kind: Multi}, `{"takes":[]}`},
		{Move{Kind: Multi, Takes: []int64{}}, `{"takes":[]}`},
	} {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.json {
			t.Errorf("%+v encodes as %s (%v), want %s", tt.v, b, err, tt.json)
		}
		back := reflect.New(reflect.TypeOf(tt.v))
		if err := json.Unmarshal([]byte(tt.json), back.Interface()); err != nil {
			t.Errorf("%s: %v", tt.json, err)
		}
	}
	var m Move
	if err := json.Unmarshal([]byte(`{"takes":[]}`), &m); err != nil || m.Kind != Multi || m.Takes == nil || len(m.Takes) != 0 {
		t.Errorf(`{"takes":[]} decodes as %+v (%v), want a Multi move with no takes`, m, err)
	}
}

// FuzzMoveJSON: any move, well-formed or not, either fails to encode or
// encodes as JSON that decodes to a move encoding the same bytes.
func FuzzMoveJSON(f *testing.F) {
	f.Add(uint8(Take), int64(1), int64(2), int64(3), int64(4), uint8(2))
	f.Add(uint8(Multi), int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), uint8(0))
	f.Add(uint8(Knock+1), int64(7), int64(0), int64(0), int64(0), uint8(9))
	f.Fuzz(func(t *testing.T, kind uint8, heap, take, a, b int64, n uint8) {
		var takes []int64
		if n != 0 {
			takes = make([]int64, n%8)
			for i := range takes {
				takes[i] = a + int64(i)*b
			}
		}
		m := Move{Kind: MoveKind(kind), Heap: int(heap), Take: take, Takes: takes, Parts: [2]int64{a, b}}
		enc, err := json.Marshal(m)
		if err != nil {
			if m.Kind <= Knock {
				t.Fatalf("%+v: %v", m, err)
			}
			return
		}
		var back Move
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("%+v encodes as %s, which does not decode: %v", m, enc, err)
		}
		again, err := json.Marshal(back)
		if err != nil || !bytes.Equal(again, enc) {
			t.Fatalf("%+v encodes as %s; decoded and encoded again, %s (%v)", m, enc, again, err)
		}
	})
}
