package engine

import (
	"encoding/json"
	"reflect"
	"testing"
)

// sameAsJSON checks that the Decode functions give json.Unmarshal's result
// for b: the same value, or an error where it errs. It reports whether the
// fast path (not the fallback) took b.
func sameAsJSON(t *testing.T, b []byte) (fast bool) {
	t.Helper()
	var wantR Rules
	errR := json.Unmarshal(b, &wantR)
	gotR, err := DecodeRules(b)
	if (err != nil) != (errR != nil) || (err == nil && !reflect.DeepEqual(gotR, wantR)) {
		t.Fatalf("DecodeRules(%q) = %#v, %v; json.Unmarshal gives %#v, %v", b, gotR, err, wantR, errR)
	}
	var wantP Position
	errP := json.Unmarshal(b, &wantP)
	gotP, err := DecodePosition(b)
	if (err != nil) != (errP != nil) || (err == nil && !reflect.DeepEqual(gotP, wantP)) {
		t.Fatalf("DecodePosition(%q) = %#v, %v; json.Unmarshal gives %#v, %v", b, gotP, err, wantP, errP)
	}
	var wantM Move
	errM := json.Unmarshal(b, &wantM)
	gotM, err := DecodeMove(b)
	if (err != nil) != (errM != nil) || (err == nil && !reflect.DeepEqual(gotM, wantM)) {
		t.Fatalf("DecodeMove(%q) = %#v, %v; json.Unmarshal gives %#v, %v", b, gotM, err, wantM, errM)
	}
	_, r := fastRules(b)
	_, p := fastPosition(b)
	_, m := fastMove(b)
	return r || p || m
}

// storedJSON is what the store writes for every variant: its rules (plain,
// misère, and with each option the variant takes), start positions and
// positions along games, and every legal move from them.
func storedJSON(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	add := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	for _, v := range Variants() {
		for _, misere := range []bool{false, true} {
			base, err := Rules{Variant: v, Misere: misere}.Normalize()
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			rules := []Rules{base}
			for _, opt := range []struct {
				name string
				vals []int64
			}{{"k", []int64{2}}, {"k", []int64{7}}, {"set", []int64{1, 3, 4}}, {"target", []int64{31}}} {
				if r, err := base.With(opt.name, opt.vals...); err == nil {
					rules = append(rules, r)
				}
			}
			for _, r := range rules {
				add(r)
				for _, heaps := range [][]int64{{3, 4, 5}, {1}, {7}, {2, 2}, {10, 0, 6}, nil} {
					p, err := r.Start(heaps)
					if err != nil {
						continue
					}
					for step := 0; step < 40 && !r.Over(p); step++ {
						add(p)
						legal := r.Legal(p)
						for _, m := range legal {
							add(m)
						}
						if p, err = r.Apply(p, legal[step%len(legal)]); err != nil {
							t.Fatal(err)
						}
					}
					add(p)
				}
			}
		}
	}
	return out
}

func TestFastDecodeEqualsJSON(t *testing.T) {
	stored := storedJSON(t)
	fast := 0
	for _, b := range stored {
		if sameAsJSON(t, b) {
			fast++
		}
	}
	// The point of the fast path: everything the store writes takes it.
	if fast != len(stored) {
		t.Errorf("the fast path took %d of %d stored values", fast, len(stored))
	}
	// Near misses: every byte of a stored value changed, dropped or doubled,
	// and hand-made edge cases for numbers, lists, strings and spacing.
	for _, b := range stored[:min(len(stored), 400)] {
		for i := range b {
			for _, c := range []byte{'0', '9', '-', ' ', '"', ',', '}', ']', '.', 'e', 'x', '\\'} {
				m := append([]byte(nil), b...)
				m[i] = c
				sameAsJSON(t, m)
			}
			sameAsJSON(t, append(append([]byte(nil), b[:i]...), b[i+1:]...))
			sameAsJSON(t, append(append(append([]byte(nil), b[:i+1]...), b[i]), b[i+1:]...))
		}
	}
	for _, s := range []string{
		`{"heap":0,"take":1}`, `{"heap":01,"take":1}`, `{"heap":1,"take":-1}`, `{"heap":1,"take":1.0}`,
		`{"heap":1,"take":1e2}`, `{"heap":1,"take":999999999999999999}`, `{"heap":1,"take":9999999999999999999}`,
		`{"heap":1,"take":99999999999999999999}`, `{"heap":1,"take":2} `, `{"heap":1,"take":2}x`,
		`{"heap": 1,"take":2}`, `{"heaps":[]}`, `{"heaps":[0]}`, `{"heaps":[1,]}`, `{"heaps":[,1]}`,
		`{"heaps":null}`, `{"heaps":[3],"limit":0}`, `{"heaps":[3],"limit":2}`, `{"heaps":[3],"limit":02}`,
		`{"heaps":[3],"limit":2,"limit":3}`, `{"heaps":[3]}{"heaps":[4]}`,
		`{"variant":"nim","misere":false}`, `{"variant":"nim","misere":true,"k":3}`, `{"variant":"","misere":false}`,
		`{"variant":"n\u0069m","misere":false}`, `{"variant":"nïm","misere":false}`, "{\"variant\":\"n\xffm\",\"misere\":false}",
		`{"variant":"subtraction","misere":false,"set":[]}`, `{"variant":"subtraction","misere":false,"set":[1,3,4],"target":0}`,
		`{"variant":"21","misere":TRUE}`, `{"takes":[]}`, `{"takes":null}`, `{"heaps":[0,1],"take":3}`,
		`{"heaps":[0,2],"take":3}`, `{"heap":1,"split":[2,3,4]}`, `{"heap":1,"split":[2]}`, `{"heap":1,"take":1,"leave":[3,4]}`,
		`{"heap":1,"take":1,"split":[3,4]}`, `{"heap":1}`, `{"take":1}`, `{"variant":"21","misere":false,"target":21,"k":3}`, ``, `{`, `null`,
	} {
		sameAsJSON(t, []byte(s))
	}
}

func FuzzFastDecode(f *testing.F) {
	for _, s := range []string{`{"heap":1,"take":2}`, `{"heaps":[3,4,5]}`, `{"heaps":[3],"limit":2}`,
		`{"variant":"subtraction","misere":true,"k":3,"set":[1,3],"target":21}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameAsJSON(t, b) })
}
