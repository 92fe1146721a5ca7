package engine

import (
	"reflect"
	"slices"
	"testing"
)

// TestValidateAndApplyToAgreeWithApply checks the two cheaper forms of Apply
// that boards use (Validate to filter menu candidates, ApplyTo to replay a
// move log) against Apply itself: the same error, word for word, for every
// probe move of every variant on every position of up to 3 heaps of up to
// 4 (plus a finished game and a Moore move on several heaps), and for a
// legal move the same position, written over the caller's copy only.
func TestValidateAndApplyToAgreeWithApply(t *testing.T) {
	for _, v := range Variants() {
		for _, misere := range []bool{false, true} {
			r := Rules{Variant: v, Misere: misere}
			legalSeen := 0
			for n := 1; n <= 3; n++ {
				eachHeaps(n, 4, func(h []int64) {
					p := Position{Heaps: h}
					if v == Fibonacci {
						p.Limit = 3
					}
					moves := append(probeMoves(n, 4), Move{Kind: Multi, Takes: []int64{1, 1, 0}[:n]})
					for _, m := range moves {
						want, wantErr := r.Apply(p, m)
						if err := r.Validate(p, m); !sameErr(err, wantErr) {
							t.Fatalf("%s %v %+v: Validate %v, Apply %v", r.Name(), h, m, err, wantErr)
						}
						before := slices.Clone(p.Heaps)
						q := Position{Heaps: slices.Clone(p.Heaps), Limit: p.Limit}
						err := r.ApplyTo(&q, m)
						if !sameErr(err, wantErr) {
							t.Fatalf("%s %v %+v: ApplyTo %v, Apply %v", r.Name(), h, m, err, wantErr)
						}
						if !slices.Equal(p.Heaps, before) {
							t.Fatalf("%s %v %+v: p changed to %v", r.Name(), before, m, p.Heaps)
						}
						if err != nil {
							if !slices.Equal(q.Heaps, p.Heaps) || q.Limit != p.Limit {
								t.Fatalf("%s %v %+v: ApplyTo failed with %v but wrote %+v", r.Name(), h, m, err, q)
							}
							continue
						}
						legalSeen++
						if !reflect.DeepEqual(q, want) {
							t.Fatalf("%s %v %+v: ApplyTo gives %+v, Apply %+v", r.Name(), h, m, q, want)
						}
					}
				})
			}
			if legalSeen == 0 {
				t.Fatalf("%s: no legal move tried", r.Name())
			}
		}
	}
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}
