package commands

import (
	"strings"
	"testing"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// TestEngineReasonLocalized checks a move or position the engine refuses is
// explained in the user's language, with what they typed escaped.
func TestEngineReasonLocalized(t *testing.T) {
	nim := engine.Rules{Variant: engine.Nim}
	_, err := nim.Apply(engine.Position{Heaps: []int64{1}}, engine.Move{Kind: engine.Take, Heap: 0, Take: 5})
	refused := userErr("refusal.move.not_allowed", "Reason", engineReason(err))
	for lang, want := range map[string]string{
		"en-US": "That move is not allowed: heap A has 1, you asked for 5. Pick another move.",
		"de":    "Dieser Zug ist nicht erlaubt: Haufen A hat 1, du wolltest 5 nehmen. Wähl einen anderen Zug.",
		"ja":    "その手は打てません：山 A には 1 個しかありませんが、5 個取ろうとしました。別の手を選んでください。",
	} {
		if got, ok := isUserError(refused, locale.For(lang)); !ok || got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}

	_, err = nim.ParseMove(engine.Position{Heaps: []int64{3, 4}}, "*x*")
	unreadable := userErr("refusal.move.unreadable", "Move", `"\*x\*"`, "Reason", engineReason(err))
	got, _ := isUserError(unreadable, locale.For("fr"))
	if want := `nimbot ne comprend pas le coup "\*x\*" : "\*x\*" n’est pas un coup : écris-le comme B3.`; got != want {
		t.Errorf("fr: %q, want %q", got, want)
	}
	if strings.Contains(got, "*x*") {
		t.Errorf("the typed move is not escaped: %q", got)
	}

	_, err = engine.ParseHeaps("3 99999999999999")
	got, _ = isUserError(userErr("refusal.position.invalid", "Reason", engineReason(err)), locale.For("de"))
	if want := "Diese Stellung geht nicht: Haufen B: 99.999.999.999.999 ist zu groß; ein Haufen fasst höchstens 1.000.000.000.000."; got != want {
		t.Errorf("de: %q, want %q", got, want)
	}
}
