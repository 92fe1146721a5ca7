package engine

import (
	"slices"
	"strings"
	"testing"
)

func TestTableLines(t *testing.T) {
	tests := []struct {
		name  string
		table Table
		want  []string
	}{
		{"NimSum", Table{
			Header: []Phrase{P(pColHeap), P(pColSize), P(pColBinary)},
			Rows:   [][]Phrase{lit("A", "3", "011"), lit("B", "12", "1100")},
			Total:  []Phrase{P(pColNimSum), Lit("15"), Lit("1111")},
		}, []string{
			"heap     size  binary",
			"---------------------",
			"A           3     011",
			"B          12    1100",
			"---------------------",
			"nim-sum    15    1111",
		}},
		{"RowsOnly", Table{Rows: [][]Phrase{lit("ä", "1"), lit("bb", "22")}}, []string{
			"ä    1",
			"bb  22",
		}},
		// Wide characters take two columns: the Japanese heading pads by
		// its width, so the digits under it stay in line.
		{"Wide", Table{
			Header: lit("山", "二進"),
			Rows:   [][]Phrase{lit("A", "011"), lit("B", "1100")},
			Total:  lit("ニム和", "1111"),
		}, []string{
			"山      二進",
			"------------",
			"A        011",
			"B       1100",
			"------------",
			"ニム和  1111",
		}},
		{"Empty", Table{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.table.Lines(nil); !slices.Equal(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestDisplayWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"heap", 4},
		{"ä", 1},            // precomposed Latin
		{"a\u0308", 1},      // a + combining diaeresis
		{"Größe", 5},        // German
		{"nim-sum", 7},      // ASCII
		{"山", 2},            // CJK ideograph
		{"ニム和", 6},          // Katakana and an ideograph
		{"ひらがな", 8},         // Hiragana
		{"サイズ", 6},          // Katakana
		{"ｶﾀｶﾅ", 4},         // halfwidth Katakana stays one column
		{"、。「」", 8},         // CJK symbols and punctuation
		{"（１）", 6},          // fullwidth forms
		{"한글", 4},           // Hangul syllables
		{"\u1100", 2},       // Hangul Jamo
		{"𠀋", 2},            // CJK extension B, outside the BMP
		{"💡", 2},            // an emoji of the pictographs block
		{"│ ●", 3},          // box drawing and the board's stones: narrow
		{"a\u200bb", 2},     // zero-width space, a format character
		{"\u3099", 0},       // combining kana voiced mark
		{"\uffe6\uff61", 3}, // fullwidth won sign, halfwidth full stop
	} {
		if got := DisplayWidth(tc.s); got != tc.want {
			t.Errorf("DisplayWidth(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// TestWideRangesSorted: runeWidth's binary search needs the ranges sorted
// and apart.
func TestWideRangesSorted(t *testing.T) {
	for i, r := range wideRanges {
		if r[0] > r[1] || (i > 0 && r[0] <= wideRanges[i-1][1]) {
			t.Errorf("wideRanges[%d] = %X..%X is out of order", i, r[0], r[1])
		}
	}
}
