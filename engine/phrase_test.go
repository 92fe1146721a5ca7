package engine

import (
	"errors"
	"fmt"
	"testing"
)

var (
	testPhraseMoves = def("test.moves", "{{.Count}} move leaves {{.Who}} lost.", "{{.Count}} moves leave {{.Who}} lost.")
	testPhraseWho   = def("test.who", "", "your opponent")
)

func TestPhraseString(t *testing.T) {
	for _, c := range []struct {
		p    Phrase
		want string
	}{
		{P(testPhraseMoves, "Count", 1, "Who", P(testPhraseWho)), "1 move leaves your opponent lost."},
		{P(testPhraseMoves, "Count", int64(3), "Who", Lit("B")), "3 moves leave B lost."},
		{Lit("101"), "101"},
		{P("no.such.phrase"), "no.such.phrase"},
		{P(testPhraseMoves, "Count", 2), "test.moves"}, // a missing argument is the id, never "<no value>"
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
	if _, ok := Phrases()[testPhraseWho]; !ok {
		t.Error("Phrases lacks a defined phrase")
	}
}

func TestDefRefusesDuplicates(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a duplicate id was accepted")
		}
	}()
	def(testPhraseWho, "", "again")
}

// TestPhraseError checks errors the engine returns for a player's input
// carry their phrase (once the engine's errors are phrases).
func TestPhraseError(t *testing.T) {
	_, err := (Rules{Variant: Nim}).Apply(Position{Heaps: []int64{1}}, Move{Kind: Take, Heap: 0, Take: 5})
	if err == nil {
		t.Fatal("taking 5 from a heap of 1 was accepted")
	}
	var pe PhraseError
	if !errors.As(err, &pe) {
		t.Fatalf("%v (%T) is not a PhraseError", err, err)
	}
	if pe.Phrase().String() != err.Error() {
		t.Errorf("phrase %q, error %q", pe.Phrase(), err)
	}
	if pe.Phrase().ID == "" {
		t.Errorf("%q is a literal, not a phrase a catalog translates", err)
	}
}

// TestInputErrorsArePhrases checks the refusals of what a player types
// (heaps, moves, positions) are phrases with an id, saying the same English
// as the error.
func TestInputErrorsArePhrases(t *testing.T) {
	nim := Rules{Variant: Nim}
	three := Position{Heaps: []int64{3, 4, 5}}
	errs := map[string]error{}
	add := func(name string, err error) {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
		errs[name] = err
	}
	_, err := ParseHeaps("")
	add("no heaps", err)
	_, err = ParseHeaps("3 x 5")
	add("not a size", err)
	_, err = ParseHeaps("3 99999999999999999999")
	add("too large", err)
	_, err = ParseHeaps("-3")
	add("negative", err)
	for _, c := range []struct {
		r Rules
		p Position
		s string
	}{
		{nim, three, ""}, {nim, three, "D3"}, {nim, three, "B"}, {nim, three, "Bx"},
		{nim, three, "B99999999999999999999"}, {nim, Position{Heaps: []int64{3}}, "+x"},
		{Rules{Variant: Wythoff}, Position{Heaps: []int64{3, 4}}, "#"},
		{Rules{Variant: Lasker}, three, "B=2"}, {Rules{Variant: Kayles}, three, "B1-3"},
		{Rules{Variant: Kayles}, three, "B9"}, {Rules{Variant: Kayles}, Position{Heaps: []int64{0}}, "A1"},
		{Rules{Variant: Moore, K: 2}, three, "A1 x"}, {Rules{Variant: Moore, K: 2}, three, "A0 B1"},
		{Rules{Variant: Moore, K: 2}, three, "A1 A2"},
	} {
		_, err := c.r.ParseMove(c.p, c.s)
		add(c.r.Name()+" move "+c.s, err)
	}
	for _, m := range []Move{{Kind: Take, Heap: 7, Take: 1}, {Kind: Take, Heap: 0, Take: 0}, {Kind: Take, Heap: 0, Take: 9}, {Kind: Split, Heap: 0}} {
		_, err := nim.Apply(three, m)
		add(fmt.Sprintf("apply %+v", m), err)
	}
	_, err = nim.Apply(Position{Heaps: []int64{0, 1}}, Move{Kind: Take, Heap: 0, Take: 1})
	add("apply to an empty heap", err)
	_, err = nim.Start(nil)
	add("start with no heap", err)
	add("negative heap", nim.Check(Position{Heaps: []int64{-1}}))
	add("limit", nim.Check(Position{Heaps: []int64{1}, Limit: 1}))
	add("beyond limits", Rules{Variant: Kayles}.Check(Position{Heaps: []int64{1 << 40}}))
	for name, err := range errs {
		if err == nil {
			continue
		}
		var pe PhraseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %v (%T) is not a PhraseError", name, err, err)
			continue
		}
		if pe.Phrase().ID == "" {
			t.Errorf("%s: %q is a literal, not a phrase", name, err)
		}
		if pe.Phrase().String() != err.Error() {
			t.Errorf("%s: phrase %q, error %q", name, pe.Phrase(), err)
		}
	}
}

// TestNamePhrase checks NamePhrase says Name in English.
func TestNamePhrase(t *testing.T) {
	for _, r := range []Rules{
		{Variant: Nim}, {Variant: Nim, Misere: true}, {Variant: Subtraction}, {Variant: Subtraction, K: 5, Misere: true},
		{Variant: Subtraction, Set: []int{1, 3, 4}}, {Variant: TwentyOne, Misere: true}, {Variant: TwentyOne},
		{Variant: TwentyOne, K: 5, Target: 30, Misere: true}, {Variant: TwentyOne, K: 5, Target: 30},
		{Variant: Moore, K: 3}, {Variant: Moore, K: 2, Misere: true}, {Variant: Kayles, Misere: true}, {Variant: Wythoff},
	} {
		if got, want := r.NamePhrase().String(), r.Name(); got != want {
			t.Errorf("%+v: NamePhrase %q, Name %q", r, got, want)
		}
	}
}
