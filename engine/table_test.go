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
