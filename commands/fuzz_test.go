package commands

import (
	"strings"
	"testing"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// FuzzStartHeaps: whatever is typed into /nim start's heaps option is either
// a board-sized position or a user error, never a panic or an internal error.
func FuzzStartHeaps(f *testing.F) {
	for _, s := range []string{"3 4 5", "3-4-5", "3,4,5", "random", "random 4", "random 0", "random 99", "", " ", "1 2 3 4 5 6 7 8 9 10 11 12 13", "99999", "-1", "3 x", "0 0", "random -2", "random 4 5"} {
		f.Add(s, "nim")
		f.Add(s, "kayles")
	}
	s := New(Config{})
	f.Fuzz(func(t *testing.T, text, variant string) {
		rules, err := engine.Rules{Variant: engine.Variant(variant)}.Normalize()
		if err != nil {
			return
		}
		heaps, err := s.parseStartHeaps(rules, text)
		if err != nil {
			if _, ok := isUserError(err, locale.For(locale.English)); !ok {
				t.Fatalf("%q: not a user error: %v", text, err)
			}
			return
		}
		if len(heaps) > maxBoardHeaps {
			t.Fatalf("%q: %d heaps", text, len(heaps))
		}
		for _, h := range heaps {
			if h < 0 || h > maxBoardHeap {
				t.Fatalf("%q: heap %d", text, h)
			}
		}
	})
}

// FuzzTypedMove: a move typed into the board's modal or /nim move is played,
// or refused with a message for the user — never an internal error.
func FuzzTypedMove(f *testing.F) {
	for _, s := range []string{"A1", "C5", "B=2+3", "AB2", "A2 C1", "B4-5", "+3", "3", "", "Z9", "A-1", "A99999999999999999999", "a1", "A0"} {
		for _, v := range engine.Variants() {
			f.Add(s, string(v))
		}
	}
	f.Fuzz(func(t *testing.T, text, variant string) {
		rules, err := engine.Rules{Variant: engine.Variant(variant)}.Normalize()
		if err != nil {
			return
		}
		pos, err := rules.Start(defaultHeaps(rules.Variant))
		if err != nil {
			t.Fatalf("default start of %s: %v", variant, err)
		}
		m, err := rules.ParseMove(pos, strings.TrimSpace(text))
		if err == nil {
			_, err = rules.Apply(pos, m)
		}
		if err == nil {
			return
		}
		if _, ok := isUserError(moveInputError(err, text), locale.For(locale.English)); !ok {
			t.Fatalf("%s %q: %v is not explained to the user", variant, text, err)
		}
	})
}
