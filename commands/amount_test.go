package commands

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
)

// TestParseAmount reads amounts as players type them: plain, grouped by
// threes with any one mark, full-width; and tells apart what is no number
// from a number grouped wrongly.
func TestParseAmount(t *testing.T) {
	en := locale.For(locale.English)
	for _, c := range []struct {
		in    string
		n     int64
		shape amountShape
	}{
		{"1500", 1500, amountOK},
		{"+3", 3, amountOK},
		{"1,500", 1500, amountOK},
		{"1.500", 1500, amountOK},
		{"1 500", 1500, amountOK},
		{"1\u00a0500", 1500, amountOK},
		{"1\u202f500", 1500, amountOK},
		{"1\u2009500", 1500, amountOK},
		{"1'500", 1500, amountOK},
		{"1’500", 1500, amountOK},
		{"１，５００", 1500, amountOK},
		{"１５００", 1500, amountOK},
		{"12.345.678", 12345678, amountOK},
		{"999,999", 999999, amountOK},
		{"1,5", 0, amountBadGroups},
		{"1.50", 0, amountBadGroups},
		{"1,5000", 0, amountBadGroups},
		{"1234,567", 0, amountBadGroups},
		{"1.500,000", 0, amountBadGroups},
		{"1,500.000", 0, amountBadGroups},
		{",500", 0, amountBadGroups},
		{"1,,500", 0, amountBadGroups},
		{"1500,", 0, amountBadGroups},
		{"0,500", 0, amountBadGroups},
		{"1 5", 0, amountBadGroups},
		{"", 0, amountNotNumber},
		{"three", 0, amountNotNumber},
		{"-1.500", 0, amountNotNumber},
		{"1,500x", 0, amountNotNumber},
		{"1_500", 0, amountNotNumber},
		// Numbers, only too large: not "no number".
		{"99999999999999999999", 0, amountTooLarge},
		{"９９９９９９９９９９９９９９９９９９９９", 0, amountTooLarge},
		{"9,223,372,036,854,775,808", 0, amountTooLarge},
		{"99,999,999,999,999,999,999", 0, amountTooLarge},
		{"99.999.999.999.999.999.999", 0, amountTooLarge},
		{"9223372036854775807", 9223372036854775807, amountOK},
		{"99,999,999,999,999,999,99", 0, amountBadGroups},
		{"+99999999999999999999", 0, amountNotNumber},
	} {
		if n, shape := parseAmount(c.in, en); n != c.n || shape != c.shape {
			t.Errorf("parseAmount(%q) = %d, %d; want %d, %d", c.in, n, shape, c.n, c.shape)
		}
	}
}

// TestPinsNotation reads the pins form: one pin or two joined by a dash,
// each as parseAmount reads it but unsigned, given to the engine as plain
// digits.
func TestPinsNotation(t *testing.T) {
	de := locale.For("de")
	for in, want := range map[string]string{
		"4": "4", "4-5": "4-5", "1.000": "1000", "1.000-1.001": "1000-1001", "1,000-1,001": "1000-1001", "１２": "12",
		"+1": "", "1-+2": "", "-1": "", "1-": "", "1,5": "", "1-2-3": "", "B1": "", "": "", "1 - 2": "",
	} {
		got, ok := pinsNotation(in, de)
		if ok != (want != "") || (ok && got != want) {
			t.Errorf("pinsNotation(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestParseAmountAsShown: every number, as any language writes it, reads
// back as itself in every language.
func TestParseAmountAsShown(t *testing.T) {
	for _, shown := range locale.Languages() {
		for _, n := range []int64{0, 7, 999, 1000, 1500, 9999, 123456, 1234567, 1 << 62} {
			s := locale.For(shown).Number(n)
			for _, lang := range locale.Languages() {
				if got, shape := parseAmount(s, locale.For(lang)); got != n || shape != amountOK {
					t.Errorf("%d as %s writes it, %q, read in %s: %d, %d", n, shown, s, lang, got, shape)
				}
			}
		}
	}
}

// FuzzParseAmount: whatever is typed reads as a number, a wrongly grouped
// one or none, never a panic; a number read has only digits and marks in
// it, and reads the same once its marks are gone.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"1500", "1,500", "1.500", "1 500", "1,5", "１，５００", "-3", "+3", "", "1.500,000"} {
		f.Add(s)
	}
	en := locale.For(locale.English)
	f.Fuzz(func(t *testing.T, s string) {
		n, shape := parseAmount(s, en)
		if shape != amountOK {
			if n != 0 {
				t.Fatalf("%q: refused, yet %d", s, n)
			}
			return
		}
		plain := strings.Map(func(r rune) rune {
			if r = foldDigit(r); isGroupMark(r) {
				return -1
			}
			return r
		}, s)
		if m, err := strconv.ParseInt(plain, 10, 64); err != nil || m != n {
			t.Fatalf("%q read as %d; without its marks, %q: %d, %v", s, n, plain, m, err)
		}
	})
}

// TestAmountFormAsShown plays, in every shipped language, the amount form's
// number typed back as the form shows the heap's size ("hat 1.500"): the
// move is played; a number grouped wrongly ("1,5") is refused with the
// shapes that work, and nothing changes. Kayles's pins are read alike.
func TestAmountFormAsShown(t *testing.T) {
	for _, lang := range locale.Languages() {
		t.Run(lang, func(t *testing.T) {
			p := locale.For(lang)
			s := speaker{newHarness(t, 3), lang}
			s.command(alice, "start", "heaps", "1500 2500", "first", "me")
			g := s.game()
			resp := s.click(alice, AskControl{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID())
			ti := deref(rowOf(resp.Data.Components[0]).Components[0]).(discordgo.TextInput)
			if !strings.Contains(ti.Label, p.Number(1500)) {
				t.Fatalf("the form asks %q, without the size as %s writes it, %q", ti.Label, lang, p.Number(1500))
			}
			resp = s.submit(alice, AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID(), "1,5")
			if want := p.T("play.err.amount_groups", "Text", "1,5", "Example", 1500, "Plain", "1500"); !isEphemeral(resp) || !strings.Contains(text(resp), want) {
				t.Errorf("1,5: %q, want %q", text(resp), want)
			}
			// A number past any heap is too large, not "no number".
			for _, huge := range []string{"99999999999999999999", "99,999,999,999,999,999,999"} {
				resp = s.submit(alice, AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID(), huge)
				if want := p.T("play.err.amount_large", "Text", huge, "Heap", "A", "Size", 1500); !isEphemeral(resp) || !strings.Contains(text(resp), want) {
					t.Errorf("%s: %q, want %q", huge, text(resp), want)
				}
			}
			if s.gameByID(g.ID).Ply != g.Ply {
				t.Fatal("a refused amount moved the game on")
			}
			typed := p.Number(1000)
			if resp = s.submit(alice, AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID(), typed); isEphemeral(resp) {
				t.Fatalf("%q refused: %s", typed, text(resp))
			}
			if m := s.moves(g.ID); len(m) == 0 || m[0].Move.Take != 1000 || m[0].Move.Heap != 0 {
				t.Fatalf("%q played %+v, want 1000 from A", typed, m)
			}

			// Kayles's form asks for pins "1 to 1.500".
			s.channel = chanB
			s.command(alice, "start", "variant", "kayles", "heaps", "1500", "first", "me")
			g = s.game()
			typed = p.Number(1000) + "-" + p.Number(1001)
			if resp = s.submit(alice, AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID(), typed); isEphemeral(resp) {
				t.Fatalf("pins %q refused: %s", typed, text(resp))
			}
			if m := s.moves(g.ID); len(m) == 0 || m[0].Move.Take != 2 || m[0].Move.Parts != [2]int64{999, 499} {
				t.Fatalf("pins %q played %+v, want pins 1000 and 1001 of A", typed, m)
			}
		})
	}
	checkNothingMissing(t)
}
