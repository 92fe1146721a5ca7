package engine

import (
	"maps"
	"reflect"
	"testing"
)

// TestPhraseArgs checks that a phrase made by P and the same phrase built
// by hand with an Args map read the same through Arg, NumArgs, EachArg,
// ArgMap and String, a name given twice keeping its last value.
func TestPhraseArgs(t *testing.T) {
	inner := P(pMovePart, "Take", 2, "Heap", "C")
	cases := []struct {
		name  string
		p     Phrase
		want  map[string]any
		plain string
	}{
		{"none", P(pMoveUnknown), nil, "makes an unknown move"},
		{"two", P(pMoveTakesFrom, "Take", int64(3), "Heap", "B"), map[string]any{"Take": int64(3), "Heap": "B"}, "takes 3 from B"},
		{"repeated", P(pMoveTakesFrom, "Take", 1, "Heap", "A", "Take", 4), map[string]any{"Take": 4, "Heap": "A"}, "takes 4 from A"},
		{"nested", P(pMoveTakesList, "Parts", inner), map[string]any{"Parts": inner}, "takes 2 from C"},
		{"label", describeMove(Position{Heaps: []int64{3, 4}}, Move{Kind: Take, Heap: 1, Take: 2}), map[string]any{"Take": int64(2), "Heap": "B"}, "takes 2 from B"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hand := Phrase{ID: c.p.ID, Args: c.want}
			for _, ph := range []Phrase{c.p, hand} {
				if ph.NumArgs() != len(c.want) {
					t.Errorf("%+v: NumArgs %d, want %d", ph, ph.NumArgs(), len(c.want))
				}
				for k, v := range c.want {
					if got, ok := ph.Arg(k); !ok || !reflect.DeepEqual(got, v) {
						t.Errorf("%+v: Arg(%s) = %v, %v; want %v", ph, k, got, ok, v)
					}
				}
				if _, ok := ph.Arg("Nope"); ok {
					t.Errorf("%+v: has an argument Nope", ph)
				}
				seen := map[string]any{}
				ph.EachArg(func(k string, v any) bool {
					if _, dup := seen[k]; dup {
						t.Errorf("%+v: %s seen twice", ph, k)
					}
					seen[k] = v
					return true
				})
				if len(c.want) > 0 && !reflect.DeepEqual(seen, c.want) || len(c.want) == 0 && len(seen) > 0 {
					t.Errorf("%+v: EachArg saw %v, want %v", ph, seen, c.want)
				}
				if m := ph.ArgMap(); !maps.EqualFunc(m, c.want, func(a, b any) bool { return reflect.DeepEqual(a, b) }) {
					t.Errorf("%+v: ArgMap %v, want %v", ph, m, c.want)
				}
				if s := ph.String(); s != c.plain {
					t.Errorf("%+v: String %q, want %q", ph, s, c.plain)
				}
			}
			// ArgMap is a copy: changing it changes no phrase.
			if m := c.p.ArgMap(); m != nil {
				m["Take"] = 99
				if v, _ := c.p.Arg("Take"); v == 99 {
					t.Errorf("ArgMap shares the phrase's arguments")
				}
			}
		})
	}
}
