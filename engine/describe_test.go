package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestDescriptions checks the table against the engine itself: every
// registered variant is described once, and what a description promises
// (defaults, bounds, opening heaps, examples, move kinds) is what the
// engine does.
func TestDescriptions(t *testing.T) {
	if len(Descriptions()) != len(variants) {
		t.Fatalf("%d descriptions, %d variants registered", len(Descriptions()), len(variants))
	}
	for _, d := range Descriptions() {
		t.Run(string(d.Variant), func(t *testing.T) {
			if _, ok := variants[d.Variant]; !ok {
				t.Fatal("described but not registered")
			}
			if got, ok := Describe(d.Variant); !ok || got.Title != d.Title {
				t.Fatal("Describe disagrees with Descriptions")
			}
			if d.Title == "" || d.Summary == "" || len(d.Rules) < 50 || d.Notation == "" || d.Heap == "" || d.Piece == "" || d.Glyph == "" {
				t.Fatalf("incomplete: %+v", d)
			}
			for _, name := range append([]string{string(d.Variant)}, d.Aliases...) {
				if v, ok := Lookup(strings.ToUpper(name)); !ok || v != d.Variant {
					t.Errorf("Lookup(%q) = %q, %v", name, v, ok)
				}
			}
			r, err := Rules{Variant: d.Variant, Misere: d.Misere}.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range d.Settings {
				if s.Min > s.Max || s.Offer[0] < s.Min || s.Offer[1] > s.Max || s.Offer[0] > s.Offer[1] {
					t.Errorf("%s: bounds %d..%d, offered %v", s.Name, s.Min, s.Max, s.Offer)
				}
				if s.Kind == Int {
					if got := *r.intField(s.Name); got != s.Default {
						t.Errorf("%s: Normalize fills in %d, the description says %d", s.Name, got, s.Default)
					}
					for _, v := range []int64{s.Min, s.Max} {
						if _, err := (Rules{Variant: d.Variant}).withInt(s.Name, v).Normalize(); err != nil {
							t.Errorf("%s=%d is within bounds but refused: %v", s.Name, v, err)
						}
					}
					if s.Max < MaxHeapSize {
						if _, err := (Rules{Variant: d.Variant}).withInt(s.Name, s.Max+1).Normalize(); !errors.Is(err, ErrInvalid) {
							t.Errorf("%s=%d is out of bounds but accepted", s.Name, s.Max+1)
						}
					}
				}
			}
			for _, name := range ruleFields {
				if _, ok := d.Setting(name); ok {
					continue
				}
				r := Rules{Variant: d.Variant}
				if name == "set" {
					r.Set = []int{1}
				} else {
					*r.intField(name) = 1
				}
				if _, err := r.Normalize(); !errors.Is(err, ErrInvalid) {
					t.Errorf("%s takes no %s, but Normalize accepts it", d.Variant, name)
				}
			}
			p, err := r.Start(d.DefaultHeaps)
			if err != nil || r.Over(p) {
				t.Fatalf("default heaps %v: %v", d.DefaultHeaps, err)
			}
			if d.Heaps > 0 && len(p.Heaps) != d.Heaps {
				t.Errorf("played on %d heaps, the description says %d", len(p.Heaps), d.Heaps)
			}
			if d.Limit != (p.Limit != 0) {
				t.Errorf("Limit %v, opening position %+v", d.Limit, p)
			}
			for _, m := range r.Legal(p) {
				if !d.Has(m.Kind) {
					t.Errorf("legal move %+v of a kind the description does not list", m)
				}
			}
			for _, e := range d.Examples {
				if rr, _, err := ParseGame(e); err != nil || rr.Variant != d.Variant {
					t.Errorf("example %q: %v, %v", e, rr.Variant, err)
				}
			}
		})
	}
	if _, ok := Describe("chess"); ok {
		t.Fatal("Describe(chess)")
	}
}

func (r Rules) withInt(name string, v int64) Rules {
	*r.intField(name) = int(v)
	return r
}

func TestTakes(t *testing.T) {
	for _, c := range []struct {
		game string
		heap int
		max  int
		want []int64
	}{
		{"3 4 5", 2, 26, []int64{1, 2, 3, 4, 5}},
		{"3 40 5", 1, 26, nil}, // filled in below: 1..26
		{"subtraction k=3 10 12", 0, 26, []int64{1, 2, 3}},
		{"subtraction set=1,3,4 7 2", 1, 26, []int64{1}},
		{"21 count=19", 0, 26, []int64{1, 2}},
		{"fibonacci 20 limit=4", 0, 26, []int64{1, 2, 3, 4}},
		{"greedy 3 5 5", 0, 2, []int64{1, 2}},
		{"kayles 5 8", 9, 26, nil},
	} {
		r, p, err := ParseGame(c.game)
		if err != nil {
			t.Fatal(err)
		}
		want := c.want
		if c.game == "3 40 5" {
			for i := int64(1); i <= 26; i++ {
				want = append(want, i)
			}
		}
		if got := r.Takes(p, c.heap, c.max); !slices.Equal(got, want) {
			t.Errorf("%s heap %d: %v, want %v", c.game, c.heap, got, want)
		}
	}
}

// TestDescriptionPhrases checks every text of a description a player reads
// is a defined phrase whose English is the table's string.
func TestDescriptionPhrases(t *testing.T) {
	for _, d := range Descriptions() {
		for _, c := range []struct {
			p    Phrase
			want string
		}{
			{d.TitlePhrase(), d.Title},
			{d.SummaryPhrase(), d.Summary},
			{d.RulesPhrase(), d.Rules},
			{d.NotationPhrase(), d.Notation},
			{d.HeapPhrase(1), d.Heap},
			{d.HeapPhrase(3), d.Heap + "s"},
			{d.PiecePhrase(1), d.Piece},
			{d.PiecePhrase(2), d.Piece + "s"},
		} {
			if _, ok := Phrases()[c.p.ID]; !ok {
				t.Errorf("%s: phrase %s is not defined", d.Variant, c.p.ID)
			}
			if got := c.p.String(); got != c.want {
				t.Errorf("%s: %s is %q, want %q", d.Variant, c.p.ID, got, c.want)
			}
		}
		for _, s := range d.Settings {
			if got := s.DocPhrase(); got.String() != s.Doc || got.ID != "variant."+string(d.Variant)+".setting."+s.Name {
				t.Errorf("%s: setting %s: %s is %q, want %q", d.Variant, s.Name, got.ID, got, s.Doc)
			}
		}
	}
}
