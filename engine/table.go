package engine

import (
	"strings"
	"unicode/utf8"
)

// Lines lays the table out as aligned plain-text lines, the form every
// renderer shows it in (a Discord code block, the terminal): the first column
// left-aligned, the others right-aligned so binary digits and numbers line up,
// a rule under the header and another above the total.
func (t Table) Lines() []string {
	rows := make([][]string, 0, len(t.Rows)+2)
	if len(t.Header) > 0 {
		rows = append(rows, t.Header)
	}
	rows = append(rows, t.Rows...)
	if len(t.Total) > 0 {
		rows = append(rows, t.Total)
	}
	var widths []int
	for _, row := range rows {
		for j, cell := range row {
			if j >= len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], utf8.RuneCountInString(cell))
		}
	}
	format := func(row []string) string {
		cells := make([]string, len(row))
		for j, cell := range row {
			gap := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(cell))
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
	if len(t.Header) > 0 {
		lines = append(lines, format(t.Header), rule)
	}
	for _, row := range t.Rows {
		lines = append(lines, format(row))
	}
	if len(t.Total) > 0 {
		lines = append(lines, rule, format(t.Total))
	}
	return lines
}
