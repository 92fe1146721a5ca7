package bot

import (
	"crypto/ed25519"
	"crypto/sha512"
	"testing"

	"filippo.io/edwards25519"
)

// FuzzVerifySigned compares the verifier with crypto/ed25519.Verify on
// signatures made honestly, where FuzzVerify's random signatures almost
// never verify: the fuzzer picks a key (a secret scalar from seed, plus
// torsion·T where T has order 8, so a mixed-order key when torsion%8 != 0),
// a message and where it is split, and a mask XORed over the signature
// (empty: the signature as made). With a prime-order key and no mask the
// signature must verify; with a mixed-order key only when [k]T vanishes,
// as cofactorless verification has it. Either way the answer must be
// crypto/ed25519's, so both sides of the table code's
// R' = [k](-A) + [S]B == R comparison are reached for fuzzed keys.
func FuzzVerifySigned(f *testing.F) {
	f.Add([]byte("seed"), byte(0), []byte(`{"type":3}`), uint16(0), []byte{})
	f.Add([]byte("seed"), byte(3), []byte(`{"type":3}`), uint16(4), []byte{})
	f.Add([]byte{}, byte(0), []byte{}, uint16(0), []byte{0, 0, 0, 1})
	f.Add([]byte("key"), byte(1), []byte("1700000000{}"), uint16(10), make([]byte, 33))
	var T edwards25519.Point
	if _, err := T.SetBytes(unhex(f, "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seed []byte, torsion byte, msg []byte, cut uint16, mask []byte) {
		h := sha512.Sum512(seed)
		a, err := edwards25519.NewScalar().SetUniformBytes(h[:])
		if err != nil {
			t.Fatal(err)
		}
		var tT edwards25519.Point
		tT.ScalarMult(scalarByte(torsion%8), &T)
		A := new(edwards25519.Point).ScalarBaseMult(a)
		A.Add(A, &tT)
		pub := A.Bytes()

		rh := sha512.New()
		rh.Write(h[:])
		rh.Write(msg)
		r, err := edwards25519.NewScalar().SetUniformBytes(rh.Sum(nil))
		if err != nil {
			t.Fatal(err)
		}
		R := new(edwards25519.Point).ScalarBaseMult(r).Bytes()
		kh := sha512.New()
		kh.Write(R)
		kh.Write(pub)
		kh.Write(msg)
		k, err := edwards25519.NewScalar().SetUniformBytes(kh.Sum(nil))
		if err != nil {
			t.Fatal(err)
		}
		sig := append(R, edwards25519.NewScalar().MultiplyAdd(k, a, r).Bytes()...)
		for i, m := range mask {
			sig[i%ed25519.SignatureSize] ^= m
		}

		c := int(cut) % (len(msg) + 1)
		got := same(t, pub, string(msg[:c]), msg[c:], sig)
		if len(mask) == 0 && torsion%8 == 0 && !got {
			t.Fatal("an honest signature by a prime-order key was refused")
		}
	})
}

// scalarByte returns n as a Scalar.
func scalarByte(n byte) *edwards25519.Scalar {
	var b [32]byte
	b[0] = n
	s, err := edwards25519.NewScalar().SetCanonicalBytes(b[:])
	if err != nil {
		panic(err)
	}
	return s
}
