package main

import (
	"crypto/ed25519"
	"crypto/sha512"
	"hash"
	"sync"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

// expandedKey signs as crypto/ed25519.Sign does (RFC 8032 pure Ed25519, which is
// deterministic: the same bytes for the same key and message, held to it by
// TestSignerMatchesSign and FuzzSigner), for less of the CPU the tool shares
// with the server. Signing was about a third of the tool's CPU per request.
// Two costs are left out:
//
//   - Per call, crypto/ed25519 looks its expanded key up in a weak-keyed
//     cache (and compares the key in constant time); here the key is
//     expanded once, in expandKey.
//   - R = [r]B is computed from a table of every multiple j·256^i·B
//     (1 <= j <= 128, 0 <= i < 32) in variable time: 32 mixed additions and
//     no doubling, where Go's constant-time ladder does 64 additions, each
//     selecting its point by scanning eight, and four doublings. Variable
//     time leaks the nonce through timing to someone timing this process,
//     which only matters for a key worth keeping secret: the tool signs
//     with a throwaway key, or a benchmark's (-key).
//
// The two SHA-512 passes over the message are RFC 8032's and stay.
type expandedKey struct {
	s      edwards25519.Scalar // the secret scalar: the clamped first half of SHA-512(seed)
	prefix [32]byte            // the second half, hashed before the message for the nonce
	pub    [32]byte
}

// expandKey expands priv once.
func expandKey(priv ed25519.PrivateKey) *expandedKey {
	h := sha512.Sum512(priv.Seed())
	k := &expandedKey{}
	if _, err := k.s.SetBytesWithClamping(h[:32]); err != nil {
		panic("load: clamping a 32-byte scalar failed: " + err.Error())
	}
	copy(k.prefix[:], h[32:])
	copy(k.pub[:], priv.Public().(ed25519.PublicKey))
	return k
}

// sigState is one goroutine's SHA-512 state and buffers for signing: a
// hash.Hash's Sum would move a fresh buffer to the heap each time.
type sigState struct {
	h      hash.Hash
	digest [sha512.Size]byte
	sig    [ed25519.SignatureSize]byte
}

// sign returns the signature of msg: ed25519.Sign(priv, msg). It is st's
// buffer, valid until st signs again.
func (k *expandedKey) sign(st *sigState, msg []byte) []byte {
	if st.h == nil {
		st.h = sha512.New()
	}
	// r = SHA-512(prefix || M) mod l, R = [r]B.
	st.h.Reset()
	st.h.Write(k.prefix[:])
	st.h.Write(msg)
	var r edwards25519.Scalar
	if _, err := r.SetUniformBytes(st.h.Sum(st.digest[:0])); err != nil {
		panic("load: a SHA-512 digest is not 64 bytes")
	}
	baseMult(st.sig[:32], &r)
	// k = SHA-512(R || A || M) mod l, S = r + k·s mod l.
	st.h.Reset()
	st.h.Write(st.sig[:32])
	st.h.Write(k.pub[:])
	st.h.Write(msg)
	var kh edwards25519.Scalar
	if _, err := kh.SetUniformBytes(st.h.Sum(st.digest[:0])); err != nil {
		panic("load: a SHA-512 digest is not 64 bytes")
	}
	var S edwards25519.Scalar
	S.MultiplyAdd(&kh, &k.s, &r)
	copy(st.sig[32:], S.Bytes())
	return st.sig[:]
}

// niels is an affine point as the mixed addition takes it: y+x, y−x and
// 2·d·x·y.
type niels struct{ ypx, ymx, xy2d field.Element }

// baseTable holds j·256^i·B at [i][j-1], built at the first signature: 4,096
// points, 480 KiB.
var baseTable = sync.OnceValue(func() *[32][128]niels {
	t := new([32][128]niels)
	var d2 field.Element // 2d, d = -121665/121666
	num := new(field.Element).Negate(fieldInt(121665))
	d2.Multiply(num, new(field.Element).Invert(fieldInt(121666)))
	d2.Add(&d2, &d2)
	row := edwards25519.NewGeneratorPoint() // 256^i·B
	for i := range t {
		p := new(edwards25519.Point).Set(row)
		for j := range t[i] {
			X, Y, Z, _ := p.ExtendedCoordinates()
			var zinv, x, y field.Element
			zinv.Invert(Z)
			x.Multiply(X, &zinv)
			y.Multiply(Y, &zinv)
			n := &t[i][j]
			n.ypx.Add(&y, &x)
			n.ymx.Subtract(&y, &x)
			n.xy2d.Multiply(&x, &y)
			n.xy2d.Multiply(&n.xy2d, &d2)
			if j < len(t[i])-1 {
				p.Add(p, row)
			}
		}
		row.Add(p, p) // 2·128·256^i·B
	}
	return t
})

// fieldInt is n as a field element.
func fieldInt(n uint32) *field.Element {
	return new(field.Element).Mult32(new(field.Element).One(), n)
}

// baseMult writes the encoding of [r]B to out (32 bytes).
func baseMult(out []byte, r *edwards25519.Scalar) {
	t := baseTable()
	// r in radix 256 with digits in [-128, 127]: r < l < 2^253, so the
	// top digit takes the last carry and none is left over.
	var digits [32]int
	carry := 0
	for i, b := range r.Bytes() {
		v := int(b) + carry
		carry = 0
		if v > 127 {
			v -= 256
			carry = 1
		}
		digits[i] = v
	}
	// The sum, in extended coordinates (X:Y:Z:T), x = X/Z, y = Y/Z,
	// x·y = T/Z, from the identity (0:1:1:0).
	var X, Y, Z, T field.Element
	X.Zero()
	Y.One()
	Z.One()
	T.Zero()
	var a, b, c, dd, e, f, g, h field.Element
	for i, v := range digits {
		if v == 0 {
			continue
		}
		n := &t[i][abs(v)-1]
		ypx, ymx := &n.ypx, &n.ymx
		if v < 0 {
			// −(x, y) = (−x, y): y+x and y−x trade places, x·y flips sign.
			ypx, ymx = ymx, ypx
		}
		// Mixed addition on the twisted Edwards curve with a = −1
		// (Hisil–Wong–Carter–Dawson, "madd-2008-hwcd-3"), as ref10's ge_madd.
		a.Subtract(&Y, &X)
		a.Multiply(&a, ymx)
		b.Add(&Y, &X)
		b.Multiply(&b, ypx)
		c.Multiply(&T, &n.xy2d)
		dd.Add(&Z, &Z)
		e.Subtract(&b, &a)
		h.Add(&b, &a)
		if v < 0 {
			f.Add(&dd, &c)
			g.Subtract(&dd, &c)
		} else {
			f.Subtract(&dd, &c)
			g.Add(&dd, &c)
		}
		X.Multiply(&e, &f)
		Y.Multiply(&g, &h)
		Z.Multiply(&f, &g)
		T.Multiply(&e, &h)
	}
	// SetExtendedCoordinates checks the point is on the curve: a wrong
	// table or formula fails loudly here, not as a rejected signature.
	var R edwards25519.Point
	if _, err := R.SetExtendedCoordinates(&X, &Y, &Z, &T); err != nil {
		panic("load: the base-point multiple left the curve")
	}
	copy(out, R.Bytes())
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
