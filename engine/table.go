package engine

import (
	"fmt"
	"strings"
)

// Lines lays the table out as aligned plain-text lines, the form every
// renderer shows it in (a Discord code block, the terminal): the first column
// left-aligned, the others right-aligned so binary digits and numbers line up,
// a rule under the header and another above the total. Cells are padded by
// the columns they take on screen (DisplayWidth), not by their runes, so a
// Japanese heading two columns a character keeps the digits under it in
// line. render turns each cell into text in the reader's language; nil
// renders English.
func (t Table) Lines(render func(Phrase) string) []string {
	if render == nil {
		render = Phrase.String
	}
	cellsOf := func(row []Phrase) []string {
		out := make([]string, len(row))
		for j, c := range row {
			out[j] = render(c)
		}
		return out
	}
	header, total := cellsOf(t.Header), cellsOf(t.Total)
	body := make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		body[i] = cellsOf(row)
	}
	rows := make([][]string, 0, len(t.Rows)+2)
	if len(header) > 0 {
		rows = append(rows, header)
	}
	rows = append(rows, body...)
	if len(total) > 0 {
		rows = append(rows, total)
	}
	var widths []int
	for _, row := range rows {
		for j, cell := range row {
			if j >= len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], DisplayWidth(cell))
		}
	}
	format := func(row []string) string {
		cells := make([]string, len(row))
		for j, cell := range row {
			gap := strings.Repeat(" ", widths[j]-DisplayWidth(cell))
			if j == 0 {
				cells[j] = cell + gap
			} else {
				cells[j] = gap + cell
			}
		}
		return strings.TrimRight(strings.Join(cells, "  "), " ")
	}
	width := 0
	for j, w := range widths {
		if j > 0 {
			width += 2
		}
		width += w
	}
	rule := strings.Repeat("-", width)
	var lines []string
	if len(header) > 0 {
		lines = append(lines, format(header), rule)
	}
	for _, row := range body {
		lines = append(lines, format(row))
	}
	if len(total) > 0 {
		lines = append(lines, rule, format(total))
	}
	return lines
}

// Table headings shared by several variants' explanations.
var (
	pColHeap     = def("table.heap", "", "heap")
	pColRow      = def("table.row", "", "row")
	pColSize     = def("table.size", "", "size")
	pColDecimal  = def("table.decimal", "", "decimal")
	pColBinary   = def("table.binary", "", "binary")
	pColNimSum   = def("table.nim_sum", "", "nim-sum")
	pColXOR      = def("table.xor", "", "XOR")
	pColGrundy   = def("table.grundy_value", "", "Grundy value")
	pColHeapName = def("table.heap_name", "", "heap {{.Heap}}")
)

// lit is a row of literal cells (numbers, binary digits, heap letters).
func lit(cells ...string) []Phrase {
	out := make([]Phrase, len(cells))
	for i, c := range cells {
		out[i] = Lit(c)
	}
	return out
}

// row is a table row of phrases; a string is a literal cell.
func row(cells ...any) []Phrase {
	out := make([]Phrase, len(cells))
	for i, c := range cells {
		switch v := c.(type) {
		case Phrase:
			out[i] = v
		case string:
			out[i] = Lit(v)
		default:
			panic(fmt.Sprintf("engine: table cell %T", c))
		}
	}
	return out
}
