package engine

import (
	_ "embed" // the misère Kayles outcome table
	"slices"
)

// Misère Kayles within its published limit is answered from a table rather
// than searched: at 40 pins a search from an empty memo takes longer than
// the 5 ms every Choose must meet.
//
// kayles_misere.bin holds one bit per canonical position of at most
// kaylesMisereMaxTotal pins — a multiset of row lengths, ranked by
// kaylesRank — set when the player to move wins. There are 215,308 such
// positions, so the table is 26,914 bytes. It was written by the search in
// search.go (go test -run TestKaylesMisereTable -update-kayles-table), and
// TestKaylesMisereTable recomputes every bit by that search and compares:
// the table is the search's answer, checked on every run of the tests, and
// the search is itself checked against the brute-force solver
// (TestKaylesAgreement). Positions beyond the table (none within the
// limits) still go to the search.

//go:embed kayles_misere.bin
var kaylesMisereTable string

// kaylesPartitions[n][m] is the number of ways to write n as a sum of rows
// of at most m pins (multisets of row lengths), for n, m ≤ kaylesMisereMaxTotal.
var kaylesPartitions = func() (c [kaylesMisereMaxTotal + 1][kaylesMisereMaxTotal + 1]uint32) {
	for m := range c[0] {
		c[0][m] = 1
	}
	for n := 1; n <= kaylesMisereMaxTotal; n++ {
		for m := 1; m <= kaylesMisereMaxTotal; m++ {
			c[n][m] = c[n][m-1]
			if m <= n {
				c[n][m] += c[n-m][m]
			}
		}
	}
	return c
}()

// kaylesTotalOffset[n] is the rank of the first position of n pins: the
// number of positions with fewer.
var kaylesTotalOffset = func() (off [kaylesMisereMaxTotal + 2]uint32) {
	for n := 0; n <= kaylesMisereMaxTotal; n++ {
		off[n+1] = off[n] + kaylesPartitions[n][n]
	}
	return off
}()

// kaylesTableSize is the number of positions the table covers.
var kaylesTableSize = int(kaylesTotalOffset[kaylesMisereMaxTotal+1])

// kaylesRank numbers a position of total pins whose non-empty rows are
// given in increasing order (as canonicalRows returns them): 0 for no pins,
// then every position of 1 pin, of 2 pins, and so on; within one total, by
// the largest row, then the next, … in increasing order. Positions of the
// same total with largest row j number kaylesPartitions[total−j][j], which
// is what the loop skips over.
func kaylesRank(rows []uint8, total int) int {
	r := kaylesTotalOffset[total]
	n := total
	for i := len(rows) - 1; i >= 0; i-- {
		l := int(rows[i])
		for j := 1; j < l; j++ {
			r += kaylesPartitions[n-j][j]
		}
		n -= l
	}
	return int(r)
}

// kaylesTableWins looks a position up; ok is false beyond the table.
func kaylesTableWins(rows []uint8) (win, ok bool) {
	total := 0
	for _, r := range rows {
		total += int(r)
	}
	if total > kaylesMisereMaxTotal || len(kaylesMisereTable)*8 < kaylesTableSize {
		return false, false
	}
	i := kaylesRank(rows, total)
	return kaylesMisereTable[i/8]>>(i%8)&1 == 1, true
}

// kaylesTableWinning is kaylesMisereWinning from the table: every knock's
// resulting position is looked up. ok is false beyond the table.
func kaylesTableWinning(p Position, max int) (ms []Move, count int64, ok bool) {
	rows, _, _ := canonicalRows(p.Heaps)
	win, ok := kaylesTableWins(rows)
	if !ok || !win {
		return nil, 0, ok
	}
	child := make([]uint8, 0, len(rows)+1)
	for i, h := range p.Heaps {
		n := uint8(h)
		for t := uint8(1); t <= 2 && t <= n; t++ {
			for a := uint8(0); a <= n-t; a++ {
				b := n - t - a
				child = kaylesChildRows(child[:0], rows, n, a, b)
				if len(child) == 0 {
					continue // taking the last pins loses in misère play
				}
				if w, _ := kaylesTableWins(child); !w {
					count++
					if len(ms) < max {
						ms = append(ms, Move{Kind: Knock, Heap: i, Take: int64(t), Parts: [2]int64{int64(a), int64(b)}})
					}
				}
			}
		}
	}
	return ms, count, true
}

// kaylesChildRows appends to out the sorted rows after one row of n becomes
// rows a and b (either may be 0).
func kaylesChildRows(out, rows []uint8, n, a, b uint8) []uint8 {
	removed := false
	for _, r := range rows {
		if !removed && r == n {
			removed = true
			continue
		}
		out = append(out, r)
	}
	for _, v := range [2]uint8{a, b} {
		if v != 0 {
			i, _ := slices.BinarySearch(out, v)
			out = slices.Insert(out, i, v)
		}
	}
	return out
}
