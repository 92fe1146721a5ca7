package engine

import (
	"flag"
	"os"
	"testing"
)

var updateKaylesTable = flag.Bool("update-kayles-table", false, "rewrite kayles_misere.bin from the search")

// TestKaylesMisereTable recomputes every bit of the misère Kayles table by
// the search and compares it with the embedded file; it also checks that
// kaylesRank numbers the positions of up to kaylesMisereMaxTotal pins one to
// one onto 0..kaylesTableSize-1. With -update-kayles-table it rewrites the
// file instead.
func TestKaylesMisereTable(t *testing.T) {
	want := make([]byte, (kaylesTableSize+7)/8)
	seen := make([]bool, kaylesTableSize)
	positions := 0
	eachRowMultiset(kaylesMisereMaxTotal, func(rows []uint8, total int) {
		positions++
		i := kaylesRank(rows, total)
		if i < 0 || i >= kaylesTableSize || seen[i] {
			t.Fatalf("rows %v: rank %d is out of range or taken", rows, i)
		}
		seen[i] = true
		var k1, k2 uint64
		for _, r := range rows {
			k1 += kaylesHash1[r]
			k2 += kaylesHash2[r]
		}
		if kaylesSearchWins(rows, k1, k2) {
			want[i/8] |= 1 << (i % 8)
		}
	})
	if positions != kaylesTableSize {
		t.Fatalf("%d positions, the table has room for %d", positions, kaylesTableSize)
	}
	if *updateKaylesTable {
		if err := os.WriteFile("kayles_misere.bin", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(want) != kaylesMisereTable {
		t.Fatalf("kayles_misere.bin (%d bytes) differs from the search's answers (%d bytes): rerun with -update-kayles-table if the rank changed", len(kaylesMisereTable), len(want))
	}
}

// eachRowMultiset calls f with every multiset of row lengths (in increasing
// order) of at most max pins in all, and its total.
func eachRowMultiset(max int, f func(rows []uint8, total int)) {
	var rows []uint8
	var rec func(least, total int)
	rec = func(least, total int) {
		f(rows, total)
		for l := least; total+l <= max; l++ {
			rows = append(rows, uint8(l))
			rec(l, total+l)
			rows = rows[:len(rows)-1]
		}
	}
	rec(1, 0)
}
