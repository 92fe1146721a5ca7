package engine

import "testing"

// TestMooreVerdictCount: the verdict counts heaps in the singular too.
func TestMooreVerdictCount(t *testing.T) {
	for _, tc := range []struct {
		heaps []int64
		want  string
	}{
		{[]int64{4, 1}, "Winning: 1 heap has the 4's bit set, which is not 0 mod 3."},
		{[]int64{4, 5}, "Winning: 2 heaps have the 4's bit set, which is not 0 mod 3."},
	} {
		h, err := Rules{Variant: Moore, K: 2}.Hint(Position{Heaps: tc.heaps})
		if err != nil || h.Verdict.String() != tc.want {
			t.Errorf("%v: %q, %v; want %q", tc.heaps, h.Verdict.String(), err, tc.want)
		}
	}
}
