package engine

import (
	"errors"
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
		t.Skipf("engine errors are not phrases yet: %v", err)
	}
	if pe.Phrase().String() != err.Error() {
		t.Errorf("phrase %q, error %q", pe.Phrase(), err)
	}
}
