package fixedbase

import (
	"bytes"
	"encoding/hex"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"

	"nimbot/internal/cpuclock"
)

// The tables must give exactly filippo.io/edwards25519's answers: these
// tests compare VarTimeDoubleScalarMult with its ScalarMult and
// VarTimeDoubleScalarBaseMult over edge scalars (the digit patterns that
// carry, or do not, through every window) and random ones, on the
// generator, random points and the points of small and mixed order a
// verifier may be handed as a key.

// order is l, the order of the prime-order subgroup.
var order, _ = new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)

// scalarOf returns n (0 <= n < l) as a Scalar.
func scalarOf(t testing.TB, n *big.Int) *edwards25519.Scalar {
	t.Helper()
	var le [32]byte
	n.FillBytes(le[:])
	for i := range 16 {
		le[i], le[31-i] = le[31-i], le[i]
	}
	s, err := edwards25519.NewScalar().SetCanonicalBytes(le[:])
	if err != nil {
		t.Fatalf("%v: %v", n, err)
	}
	return s
}

// repeatDigit returns Σ_{i<n} v·32^i.
func repeatDigit(v int64, n int) *big.Int {
	s := new(big.Int)
	for range n {
		s.Lsh(s, window)
		s.Add(s, big.NewInt(v))
	}
	return s
}

// edgeScalars are scalars whose recoding reaches the ends of the digit
// range: 0, 1, l-1 and its neighbours, windows all 16 (the largest digit,
// no carry), all 17 (-15 and a carry into every window), all 31 (-1 and
// a carry), all 15, alternating 16 and 17, powers of 32 at table
// boundaries, and the largest scalars of every length in windows.
func edgeScalars(t testing.TB) []*edwards25519.Scalar {
	t.Helper()
	one := big.NewInt(1)
	ns := []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(2), big.NewInt(15), big.NewInt(16), big.NewInt(17),
		big.NewInt(31), big.NewInt(32), big.NewInt(33),
		new(big.Int).Sub(order, one), new(big.Int).Sub(order, big.NewInt(2)),
		new(big.Int).Sub(order, big.NewInt(16)), new(big.Int).Sub(order, big.NewInt(17)),
		new(big.Int).Rsh(order, 1), new(big.Int).Lsh(one, 252), new(big.Int).Sub(new(big.Int).Lsh(one, 252), one),
	}
	for _, v := range []int64{15, 16, 17, 31} {
		for _, n := range []int{1, 2, 3, 4, 17, 48, 49, 50} {
			ns = append(ns, repeatDigit(v, n))
		}
	}
	alt := new(big.Int)
	for i := range 50 {
		alt.Lsh(alt, window)
		alt.Add(alt, big.NewInt(int64(16+i%2)))
	}
	ns = append(ns, alt)
	for i := range digits {
		p := new(big.Int).Lsh(one, uint(window*i))
		ns = append(ns, p, new(big.Int).Sub(p, one), new(big.Int).Mul(p, big.NewInt(16)), new(big.Int).Mul(p, big.NewInt(17)))
	}
	var out []*edwards25519.Scalar
	for _, n := range ns {
		if n.Cmp(order) < 0 {
			out = append(out, scalarOf(t, n))
		}
	}
	return out
}

func randomScalar(rng *rand.ChaCha8) *edwards25519.Scalar {
	var b [64]byte
	rng.Read(b[:])
	s, _ := edwards25519.NewScalar().SetUniformBytes(b[:])
	return s
}

// points returns the generator, the identity, the eight points of small
// order, random points and random points plus a point of order 8.
func points(t testing.TB, rng *rand.ChaCha8, random int) []*edwards25519.Point {
	t.Helper()
	pts := []*edwards25519.Point{edwards25519.NewGeneratorPoint(), edwards25519.NewIdentityPoint()}
	var small []*edwards25519.Point
	for _, s := range []string{
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
		"0000000000000000000000000000000000000000000000000000000000000000", // order 4
		"0000000000000000000000000000000000000000000000000000000000000080", // order 4
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", // order 8
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", // order 8
	} {
		b, _ := hex.DecodeString(s)
		p, err := new(edwards25519.Point).SetBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		small = append(small, p)
	}
	pts = append(pts, small...)
	for i := range random {
		p := new(edwards25519.Point).ScalarBaseMult(randomScalar(rng))
		pts = append(pts, p, new(edwards25519.Point).Add(p, small[3+i%4]))
	}
	return pts
}

// TestConstants: d is -121665/121666.
func TestConstants(t *testing.T) {
	var num, den, want field.Element
	num.Mult32(new(field.Element).One(), 121665)
	num.Negate(&num)
	den.Mult32(new(field.Element).One(), 121666)
	want.Multiply(&num, new(field.Element).Invert(&den))
	if d.Equal(&want) != 1 {
		t.Fatalf("d = %x, want %x", d.Bytes(), want.Bytes())
	}
}

// TestRecode: every edge and random scalar is Σ d_i·32^i with digits in
// [-15, 16].
func TestRecode(t *testing.T) {
	rng := rand.NewChaCha8([32]byte{'r', 'e', 'c'})
	ss := edgeScalars(t)
	for range 1000 {
		ss = append(ss, randomScalar(rng))
	}
	for _, s := range ss {
		ds := recode(s)
		sum := new(big.Int)
		for i := digits - 1; i >= 0; i-- {
			if ds[i] < -(entries-1) || ds[i] > entries {
				t.Fatalf("%x: digit %d is %d", s.Bytes(), i, ds[i])
			}
			sum.Lsh(sum, window)
			sum.Add(sum, big.NewInt(int64(ds[i])))
		}
		le := s.Bytes()
		for i := range 16 {
			le[i], le[31-i] = le[31-i], le[i]
		}
		if want := new(big.Int).SetBytes(le); sum.Cmp(want) != 0 {
			t.Fatalf("digits %v sum to %v, want %v", ds, sum, want)
		}
	}
}

// TestScalarMult: [a]P from P's table, with the other table's scalar zero,
// equals edwards25519's ScalarMult for every point and edge scalar and for
// random scalars; [a]P + [b]B equals its VarTimeDoubleScalarBaseMult.
func TestScalarMult(t *testing.T) {
	rng := rand.NewChaCha8([32]byte{'m', 'u', 'l', 't'})
	randomPoints, randomScalars := 6, 64
	if testing.Short() || raceEnabled {
		randomPoints, randomScalars = 2, 8
	}
	zero := edwards25519.NewScalar()
	B := Generator()
	edge := edgeScalars(t)
	for pi, P := range points(t, rng, randomPoints) {
		tab := New(P)
		ss := edge
		for range randomScalars {
			ss = append(ss[:len(ss):len(ss)], randomScalar(rng))
		}
		for _, a := range ss {
			want := new(edwards25519.Point).ScalarMult(a, P)
			if got := VarTimeDoubleScalarMult(a, tab, zero, B); got.Equal(want) != 1 {
				t.Fatalf("point %d (%x), a = %x: [a]P = %x, want %x", pi, P.Bytes(), a.Bytes(), got.Bytes(), want.Bytes())
			}
			// The tables in the other order, P's second.
			if got := VarTimeDoubleScalarMult(zero, B, a, tab); got.Equal(want) != 1 {
				t.Fatalf("point %d (%x), a = %x: [a]P second = %x, want %x", pi, P.Bytes(), a.Bytes(), got.Bytes(), want.Bytes())
			}
			b := ss[rng.Uint64()%uint64(len(ss))]
			want.VarTimeDoubleScalarBaseMult(a, P, b)
			if got := VarTimeDoubleScalarMult(a, tab, b, B); got.Equal(want) != 1 {
				t.Fatalf("point %d (%x), a = %x, b = %x: [a]P+[b]B = %x, want %x", pi, P.Bytes(), a.Bytes(), b.Bytes(), got.Bytes(), want.Bytes())
			}
		}
	}
}

// TestTableEntries: every entry of the generator's table is m·32^(3j)·B,
// checked against ScalarBaseMult through its encoding.
func TestTableEntries(t *testing.T) {
	B := Generator()
	for j := range tables {
		for m := 1; m <= entries; m++ {
			n := new(big.Int).Lsh(big.NewInt(int64(m)), uint(window*stride*j))
			n.Mod(n, order)
			want := new(edwards25519.Point).ScalarBaseMult(scalarOf(t, n))
			X, Y, Z, _ := want.ExtendedCoordinates()
			var zInv, x, y, ypx, ymx field.Element
			zInv.Invert(Z)
			x.Multiply(X, &zInv)
			y.Multiply(Y, &zInv)
			ypx.Add(&y, &x)
			ymx.Subtract(&y, &x)
			e := &B.t[j][m-1]
			if e.yPlusX.Equal(&ypx) != 1 || e.yMinusX.Equal(&ymx) != 1 {
				t.Fatalf("table %d entry %d is not %d·32^%d·B", j, m, m, stride*j)
			}
		}
	}
}

// FuzzDoubleScalarMult compares [a]P + [b]B with edwards25519's
// VarTimeDoubleScalarBaseMult for any encoding that decodes to a point
// (non-canonical, small and mixed order included) and any two scalars,
// taken mod l from 64 bytes each.
func FuzzDoubleScalarMult(f *testing.F) {
	g := edwards25519.NewGeneratorPoint().Bytes()
	f.Add(g, []byte{1}, []byte{})
	f.Add(make([]byte, 32), bytes.Repeat([]byte{0xff}, 64), bytes.Repeat([]byte{0x10}, 32))
	f.Add(bytes.Repeat([]byte{0xff}, 32), []byte{}, bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, enc, sa, sb []byte) {
		P, err := new(edwards25519.Point).SetBytes(enc)
		if err != nil {
			return
		}
		scalar := func(b []byte) *edwards25519.Scalar {
			var wide [64]byte
			copy(wide[:], b)
			s, _ := edwards25519.NewScalar().SetUniformBytes(wide[:])
			return s
		}
		a, b := scalar(sa), scalar(sb)
		want := new(edwards25519.Point).VarTimeDoubleScalarBaseMult(a, P, b)
		if got := VarTimeDoubleScalarMult(a, New(P), b, Generator()); got.Equal(want) != 1 {
			t.Fatalf("P = %x, a = %x, b = %x: %x, want %x", enc, a.Bytes(), b.Bytes(), got.Bytes(), want.Bytes())
		}
	})
}

// BenchmarkVarTimeDoubleScalarMult is the curve arithmetic of one
// verification, R' = [k](-A) + [S]B: "tables" here, "edwards25519" as
// crypto/ed25519 computes it.
func BenchmarkVarTimeDoubleScalarMult(b *testing.B) {
	rng := rand.NewChaCha8([32]byte{'b'})
	A := new(edwards25519.Point).ScalarBaseMult(randomScalar(rng))
	k, S := randomScalar(rng), randomScalar(rng)
	b.Run("tables", func(b *testing.B) {
		tab, B := New(A), Generator()
		b.ReportAllocs()
		c0 := cpuclock.Process()
		for b.Loop() {
			VarTimeDoubleScalarMult(k, tab, S, B)
		}
		reportCPU(b, c0)
	})
	b.Run("edwards25519", func(b *testing.B) {
		var R edwards25519.Point
		b.ReportAllocs()
		c0 := cpuclock.Process()
		for b.Loop() {
			R.VarTimeDoubleScalarBaseMult(k, A, S)
		}
		reportCPU(b, c0)
	})
}

// BenchmarkNew is building one point's table: the verifier's startup cost.
func BenchmarkNew(b *testing.B) {
	A := edwards25519.NewGeneratorPoint()
	b.ReportAllocs()
	c0 := cpuclock.Process()
	for b.Loop() {
		New(A)
	}
	reportCPU(b, c0)
}

// reportCPU reports the process's CPU time per operation since c0: on a
// shared machine, steadier than the time on the clock.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64((cpuclock.Process()-c0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}
