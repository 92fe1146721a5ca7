package locale

import (
	"slices"
	"testing"
)

// TestTStrEqualsT renders every message of every language through TStr and
// through T with the same string arguments (each field, each field but
// the first, an extra unused one, a string Count, a name given twice, none)
// and expects the same text and the same record of missing messages.
func TestTStrEqualsT(t *testing.T) {
	keepMissing(t)
	vals := []string{"B3", "<@123456789012345678> **x** `A2 C1`", "7", "1234567", ""}
	for _, lang := range Languages() {
		p := For(lang)
		for _, id := range IDs(English) {
			names := Fields(English, id)
			var cases [][]string
			all := []string{}
			for k, n := range names {
				all = append(all, n, vals[k%len(vals)])
			}
			cases = append(cases, all, nil, append(slices.Clone(all), "Unused", "u"), []string{"Count", "3"})
			if len(names) > 0 {
				cases = append(cases, all[2:], append(slices.Clone(all), names[0], "again"))
			}
			for _, c := range cases {
				pairs := make([]any, len(c))
				for k, s := range c {
					pairs[k] = s
				}
				var viaT, viaS string
				tMiss := recorded(func() { viaT = p.T(id, pairs...) })
				sMiss := recorded(func() { viaS = p.TStr(id, c...) })
				if viaS != viaT {
					t.Errorf("%s %s %q: TStr %q, T %q", lang, id, c, viaS, viaT)
				}
				if !slices.Equal(sMiss, tMiss) {
					t.Errorf("%s %s %q: missing TStr %v, T %v", lang, id, c, sMiss, tMiss)
				}
			}
		}
	}
}
