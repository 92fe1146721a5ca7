package match_test

import (
	"testing"

	"nimbot/match"
)

func TestReplacesBoard(t *testing.T) {
	cases := []struct {
		recorded, id string
		want         bool
	}{
		{"", "1300000000000000001", true},
		{"1300000000000000001", "1300000000000000002", true},
		{"1300000000000000002", "1300000000000000001", false},
		{"1300000000000000002", "1300000000000000002", false},
		{"9", "10", true},
		{"10", "9", false},
		{"0200", "150", false},
		{"150", "000150", false},
		{"18446744073709551614", "18446744073709551615", true},
		{"18446744073709551616", "1", true}, // beyond 64 bits: no order
		{"1", "18446744073709551616", true},
		{"1300000000000000002", "board", true},
		{"board", "1300000000000000001", true},
		{"board", "board", false},
		{"1300000000000000002", "", true},
		{"-1", "1", true},
	}
	for _, c := range cases {
		if got := match.ReplacesBoard(c.recorded, c.id); got != c.want {
			t.Errorf("ReplacesBoard(%q, %q) = %v, want %v", c.recorded, c.id, got, c.want)
		}
	}
}

// FuzzReplacesBoard: SnowflakeAfter and ReplacesBoard follow the
// snowflakes' values, whatever their digits (leading zeros, the largest
// uint64 and past it), and anything that is not one is replaced.
func FuzzReplacesBoard(f *testing.F) {
	for _, s := range [][2]string{
		{"1300000000000000001", "1300000000000000002"}, {"9", "10"}, {"0200", "150"}, {"0", "00"},
		{"", "0"}, {"18446744073709551615", "018446744073709551615"}, {"18446744073709551616", "7"}, {"x", "1"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		x, okA := match.Snowflake(a)
		y, okB := match.Snowflake(b)
		if got, want := match.SnowflakeAfter(b, a), okA && okB && y > x; got != want {
			t.Fatalf("SnowflakeAfter(%q, %q) = %v", b, a, got)
		}
		if got, want := match.ReplacesBoard(a, b), a != b && (!okA || !okB || y > x); got != want {
			t.Fatalf("ReplacesBoard(%q, %q) = %v", a, b, got)
		}
	})
}

func TestValidLocale(t *testing.T) {
	for l, want := range map[string]bool{
		"": true, "de": true, "pt-BR": true, "es-419": true, "zh-TW": true,
		"abcdefghijklmnop": true, "abcdefghijklmnopq": false,
		"de\x00": false, "de_DE": false, "de ": false, "日本": false, "de\n": false,
	} {
		if got := match.ValidLocale(l); got != want {
			t.Errorf("ValidLocale(%q) = %v, want %v", l, got, want)
		}
	}
}
