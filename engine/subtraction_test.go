package engine

import (
	"slices"
	"testing"
)

// TestGrundyCacheIsBounded: the tables of every set asked for are kept
// within grundyCachedSets and grundyCachedValues, whatever sets come (a
// user may type any), and a set asked for again after its table was
// dropped gets the same table.
func TestGrundyCacheIsBounded(t *testing.T) {
	first, err := grundyTable([]int{2, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	for a := 1; a <= maxSetElement; a++ {
		for b := a + 1; b <= maxSetElement; b++ {
			if _, err := grundyTable([]int{a, b}); err != nil {
				t.Fatalf("{%d, %d}: %v", a, b, err)
			}
		}
	}
	grundyCache.Lock()
	sets, values := len(grundyCache.sets), grundyCache.values
	counted := 0
	for _, e := range grundyCache.sets {
		counted += e.size()
	}
	grundyCache.Unlock()
	if sets > grundyCachedSets || values > grundyCachedValues || counted != values {
		t.Fatalf("cache holds %d sets, %d values (counted %d); bounds %d, %d", sets, values, counted, grundyCachedSets, grundyCachedValues)
	}
	again, err := grundyTable([]int{2, 5, 6})
	if err != nil || !slices.Equal(again.values, first.values) || again.start != first.start || again.period != first.period {
		t.Fatalf("{2, 5, 6} again: %+v, %v; first %+v", again, err, first)
	}
}
