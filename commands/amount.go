package commands

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"nimbot/commands/locale"
)

// The amount form asks "how many to take from A (it has 1.500)?", with the
// size written as the reader's language groups digits, so the player types
// the number back as shown: "1.500" in German, "1 500" in French, "1,500"
// in English. Showing the size ungrouped would only move the surprise (the
// rest of the board groups it), and a player who learnt "1,500" elsewhere
// types it anyway. So a whole number is read with its digits grouped by
// threes under any one of the marks people group with. A decimal reading is
// never meant: stones are whole, and a mark followed by exactly three
// digits is a group in every language nimbot speaks. Anything else shaped
// like a number ("1,5", "1.50", "1.500,000") is refused with the shapes
// that work, never guessed at.

// amountShape says how a typed amount read.
type amountShape int

const (
	amountOK        amountShape = iota // a whole number
	amountNotNumber                    // not digits at all: "three", "-3", ""
	amountBadGroups                    // digits and group marks, not grouped by threes: "1,5"
	amountTooLarge                     // a whole number past int64: "99999999999999999999"
)

// isGroupMark reports whether r is a mark people group digits with: the
// ASCII comma, full stop, apostrophe and space, the no-break and thin
// spaces (French, as golang.org/x/text writes it: U+202F) and the
// typographic apostrophe phones type (Swiss 1’500).
func isGroupMark(r rune) bool {
	switch r {
	case ',', '.', '\'', ' ', '\u00a0', '\u202f', '\u2009', '\u2019':
		return true
	}
	return false
}

// foldDigit is r with full-width digits and marks (a Japanese IME's
// "１，５００") as their ASCII forms.
func foldDigit(r rune) rune {
	switch {
	case r >= '０' && r <= '９':
		return '0' + (r - '０')
	case r == '，':
		return ','
	case r == '．':
		return '.'
	}
	return r
}

// parseAmount reads a whole number typed into a form: plain digits (as
// strconv reads them, a sign allowed), or digits grouped by threes with one
// kind of mark, the way lang writes numbers or any other way (1,500 /
// 1.500 / 1 500 / 1'500). The number may still be out of range for the
// move; that is the engine's to say.
func parseAmount(s string, lang *locale.Printer) (int64, amountShape) {
	s = strings.Map(foldDigit, s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, amountOK
	}
	// The language's own mark, should a language write one not listed.
	own, _ := utf8.DecodeRuneInString(strings.TrimLeft(lang.Number(1000), "1"))
	var (
		mark   rune // the one mark this number uses
		digits = make([]byte, 0, len(s))
		lead   int // digits before the first mark
		group  int // digits since the last mark
	)
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits = append(digits, byte(r))
			if mark == 0 {
				lead++
			} else {
				group++
			}
		case isGroupMark(r) || r == own:
			// A mark must follow digits, come after a whole group, and be
			// the same mark throughout.
			if len(digits) == 0 || (mark != 0 && (r != mark || group != 3)) {
				return 0, amountBadGroups
			}
			mark, group = r, 0
		default:
			return 0, amountNotNumber
		}
	}
	switch {
	case len(digits) == 0:
		return 0, amountNotNumber // nothing typed
	case mark == 0:
		return 0, amountTooLarge // plain digits strconv refused
	case lead > 3 || group != 3 || digits[0] == '0':
		return 0, amountBadGroups
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil {
		return 0, amountTooLarge
	}
	return n, amountOK
}

// pinsNotation reads pins of a row as the amount form asks, one pin number
// ("4") or two joined by a dash ("4-5"), each in digits as parseAmount
// reads them (the form says "1 to 1.500") but with no sign ("+1" is not a
// pin), and returns them in the engine's notation, plain digits, so
// nothing typed but the numbers reaches the move joined to the row's
// label; not ok for anything else.
func pinsNotation(s string, lang *locale.Printer) (string, bool) {
	pin := func(s string) (string, bool) {
		if r, _ := utf8.DecodeRuneInString(strings.Map(foldDigit, s)); r < '0' || r > '9' {
			return "", false
		}
		n, shape := parseAmount(s, lang)
		return strconv.FormatInt(n, 10), shape == amountOK
	}
	a, b, two := strings.Cut(s, "-")
	x, ok := pin(a)
	if !ok || !two {
		return x, ok
	}
	y, ok := pin(b)
	return x + "-" + y, ok
}
