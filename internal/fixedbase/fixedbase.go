// Package fixedbase computes [a]P + [b]Q on edwards25519 for points P and Q
// that are known long before the scalars are: the generator, and the one
// public key an Ed25519 verifier checks every signature against.
//
// filippo.io/edwards25519's VarTimeDoubleScalarBaseMult, which
// crypto/ed25519.Verify uses, cannot assume that: it rebuilds a table for the
// variable point on every call and walks all 253 bits of both scalars, about
// 253 doublings and 70 additions. Here each point's multiples are computed
// once (New), spaced so that one scalar multiplication is a sum of table
// entries with only a few doublings in between: 102 additions and 10
// doublings for the pair, a third of the work.
//
// The layout is a fixed-base comb. A scalar s < 2^253 is written in signed
// radix 2^5, s = Σ d_i·32^i with d_i in [-15, 16], so 51 digits. Table j
// holds m·32^(3j)·P for m = 1..16, so that
//
//	[s]P = Σ_{r=0..2} 32^r · Σ_j d_{3j+r} · (32^(3j)·P):
//
// each inner sum is one table lookup and one addition per digit, and the
// outer one is two rounds of five doublings, shared by both scalars. With 17
// tables of 16 entries of 120 bytes, a Table is 32,640 bytes.
//
// Everything here is variable-time: lookups index the tables by the digit,
// and zero digits are skipped. That is right for signature verification,
// whose inputs are all public, and wrong for anything secret (signing).
//
// The point formulas (extended coordinates, Hisil, Wong, Carter and Dawson,
// "Twisted Edwards Curves Revisited", 2008, and the "completed" and affine
// Niels forms of the ref10 implementation) are those of
// filippo.io/edwards25519, which keeps them unexported: they are rewritten
// here on its exported field package. The addition formulas are complete on
// this curve (a = -1, d not a square), so they hold for every point,
// small-order and mixed-order points included, which a verifier must handle
// exactly as crypto/ed25519 does.
//
// Portions adapted from filippo.io/edwards25519, Copyright (c) 2017 The Go
// Authors, under the BSD-style license in LICENSE.edwards25519.
package fixedbase

import (
	"sync"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

const (
	// window is the bits per signed digit. Wider digits mean fewer
	// additions but tables twice as large per bit; 5 with stride 3 keeps a
	// Table near 32 KB (see the package comment).
	window = 5
	// digits of a scalar below 2^253 (every reduced Scalar): 51·5 = 255
	// bits, and the top digit (bits 250-254, below 8) absorbs the last
	// carry without a 52nd.
	digits = (253 + window - 1) / window
	// stride is how many digits apart consecutive tables are: stride-1
	// rounds of window doublings between the passes over the tables.
	stride = 3
	// tables is the number of tables per point.
	tables = (digits + stride - 1) / stride
	// entries per table: the multiples 1..2^(window-1) of its point;
	// negative digits use the negated entry, which costs nothing.
	entries = 1 << (window - 1)
)

// Table is the precomputed multiples of one point that make scalar
// multiplications by it cheap: see the package comment. It is 32,640 bytes
// and read-only once built, so one Table may be used by many goroutines.
type Table struct {
	t [tables][entries]niels
}

// niels is an affine point (x, y) as (y+x, y-x, 2dxy): the operand of a
// mixed addition, which needs no Z of it and so saves a multiplication, and
// negates by swapping the first two and negating the third.
type niels struct {
	yPlusX, yMinusX, t2d field.Element
}

// extended is a point in extended coordinates: x = X/Z, y = Y/Z, xy = T/Z.
type extended struct {
	X, Y, Z, T field.Element
}

// completed is the result of an addition or doubling before its last
// multiplications: x = X/Z, y = Y/T. Converting it to projective for the
// next doubling costs three multiplications, to extended (for an addition)
// four.
type completed struct {
	X, Y, Z, T field.Element
}

// projective is a point in projective coordinates (x = X/Z, y = Y/Z):
// enough for a doubling, which does not use T.
type projective struct {
	X, Y, Z field.Element
}

// d is the curve constant -121665/121666 (edwards25519's encoding of it;
// TestConstants checks the value), d2 twice it.
var (
	d, _ = new(field.Element).SetBytes([]byte{
		0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75,
		0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00,
		0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c,
		0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52})
	d2 = new(field.Element).Add(d, d)
)

// New returns the table of p. It costs about ten verifications (~0.25 ms of
// CPU here): build it once per point.
func New(p *edwards25519.Point) *Table {
	// The entries in extended coordinates first, then all made affine at
	// once: one field inversion for the lot (Montgomery's trick) instead
	// of one each, which would cost more than everything else here.
	pts := make([]edwards25519.Point, tables*entries)
	base := new(edwards25519.Point).Set(p) // 32^(3j)·p
	for j := range tables {
		row := pts[j*entries : (j+1)*entries]
		row[0].Set(base)
		for m := 1; m < entries; m++ {
			row[m].Add(&row[m-1], base)
		}
		if j < tables-1 {
			for range window * stride {
				base.Add(base, base)
			}
		}
	}

	// prefix[i] = Z_0·…·Z_i; Z is never zero for a point of the curve.
	zs := make([]field.Element, len(pts))
	prefix := make([]field.Element, len(pts))
	for i := range pts {
		_, _, z, _ := pts[i].ExtendedCoordinates()
		zs[i] = *z
		if i == 0 {
			prefix[i] = *z
		} else {
			prefix[i].Multiply(&prefix[i-1], z)
		}
	}
	var inv field.Element // 1/(Z_0·…·Z_i) as i goes down
	inv.Invert(&prefix[len(pts)-1])

	t := new(Table)
	for i := len(pts) - 1; i >= 0; i-- {
		var zInv field.Element // 1/Z_i
		if i == 0 {
			zInv = inv
		} else {
			zInv.Multiply(&inv, &prefix[i-1])
			inv.Multiply(&inv, &zs[i])
		}
		X, Y, _, _ := pts[i].ExtendedCoordinates()
		var x, y field.Element
		x.Multiply(X, &zInv)
		y.Multiply(Y, &zInv)
		n := &t.t[i/entries][i%entries]
		n.yPlusX.Add(&y, &x)
		n.yMinusX.Subtract(&y, &x)
		n.t2d.Multiply(&x, &y)
		n.t2d.Multiply(&n.t2d, d2)
	}
	return t
}

// Generator returns the table of the canonical generator B, built on first
// use and shared.
var Generator = sync.OnceValue(func() *Table { return New(edwards25519.NewGeneratorPoint()) })

// VarTimeDoubleScalarMult returns [a]P + [b]Q, where P and Q are the points
// of the tables p and q. Its time depends on the scalars: use it only with
// public ones.
func VarTimeDoubleScalarMult(a *edwards25519.Scalar, p *Table, b *edwards25519.Scalar, q *Table) *edwards25519.Point {
	// Outlined so that this inlines and the result may live on the
	// caller's stack.
	return varTimeDoubleScalarMult(new(edwards25519.Point), a, p, b, q)
}

func varTimeDoubleScalarMult(out *edwards25519.Point, a *edwards25519.Scalar, p *Table, b *edwards25519.Scalar, q *Table) *edwards25519.Point {
	da, db := recode(a), recode(b)

	var acc extended
	acc.X.Zero()
	acc.Y.One()
	acc.Z.One()
	acc.T.Zero()
	var c completed
	var pr projective
	for r := stride - 1; r >= 0; r-- {
		if r < stride-1 {
			// acc = 32·acc. A doubling ignores T, and its result needs
			// T only before an addition: projective in between.
			pr.X, pr.Y, pr.Z = acc.X, acc.Y, acc.Z
			for range window - 1 {
				c.double(&pr)
				pr.fromCompleted(&c)
			}
			c.double(&pr)
			acc.fromCompleted(&c)
		}
		for j := range tables {
			i := j*stride + r
			if i >= digits {
				break
			}
			if da[i] != 0 {
				c.addDigit(&acc, &p.t[j], da[i])
				acc.fromCompleted(&c)
			}
			if db[i] != 0 {
				c.addDigit(&acc, &q.t[j], db[i])
				acc.fromCompleted(&c)
			}
		}
	}

	if _, err := out.SetExtendedCoordinates(&acc.X, &acc.Y, &acc.Z, &acc.T); err != nil {
		panic("fixedbase: result is not a point of the curve")
	}
	return out
}

// recode writes s in signed radix 32: s = Σ d_i·32^i, d_i in [-15, 16].
// A window above 16 borrows from the next: w = (w - 32) + 32.
func recode(s *edwards25519.Scalar) [digits]int8 {
	b := s.Bytes() // canonical, little-endian, below l < 2^253
	var d [digits]int8
	carry := 0
	for i := range digits {
		bit := i * window
		v := int(b[bit/8]) >> (bit % 8)
		if bit%8+window > 8 {
			v |= int(b[bit/8+1]) << (8 - bit%8)
		}
		v = v&(1<<window-1) + carry
		carry = 0
		if v > entries {
			v -= 1 << window
			carry = 1
		}
		d[i] = int8(v)
	}
	if carry != 0 {
		panic("fixedbase: scalar not below 2^253")
	}
	return d
}

// addDigit sets c = p + digit·(the table's point), 0 < |digit| <= 16: the
// mixed addition of edwards25519's AddAffine, or its SubAffine for a
// negative digit (-(x, y) = (-x, y) swaps y+x and y-x and negates 2dxy).
func (c *completed) addDigit(p *extended, t *[entries]niels, digit int8) {
	var q *niels
	neg := digit < 0
	if neg {
		q = &t[-digit-1]
	} else {
		q = &t[digit-1]
	}
	var yPlusX, yMinusX, pp, mm, tt2d, z2 field.Element
	yPlusX.Add(&p.Y, &p.X)
	yMinusX.Subtract(&p.Y, &p.X)
	if neg {
		pp.Multiply(&yPlusX, &q.yMinusX)
		mm.Multiply(&yMinusX, &q.yPlusX)
	} else {
		pp.Multiply(&yPlusX, &q.yPlusX)
		mm.Multiply(&yMinusX, &q.yMinusX)
	}
	tt2d.Multiply(&p.T, &q.t2d)
	z2.Add(&p.Z, &p.Z)
	c.X.Subtract(&pp, &mm)
	c.Y.Add(&pp, &mm)
	if neg {
		c.Z.Subtract(&z2, &tt2d)
		c.T.Add(&z2, &tt2d)
	} else {
		c.Z.Add(&z2, &tt2d)
		c.T.Subtract(&z2, &tt2d)
	}
}

// double sets c = 2p (edwards25519's projP1xP1.Double).
func (c *completed) double(p *projective) {
	var xx, yy, zz2, xPlusYSq field.Element
	xx.Square(&p.X)
	yy.Square(&p.Y)
	zz2.Square(&p.Z)
	zz2.Add(&zz2, &zz2)
	xPlusYSq.Add(&p.X, &p.Y)
	xPlusYSq.Square(&xPlusYSq)
	c.Y.Add(&yy, &xx)
	c.Z.Subtract(&yy, &xx)
	c.X.Subtract(&xPlusYSq, &c.Y)
	c.T.Subtract(&zz2, &c.Z)
}

// fromCompleted sets e to c in extended coordinates.
func (e *extended) fromCompleted(c *completed) {
	e.X.Multiply(&c.X, &c.T)
	e.Y.Multiply(&c.Y, &c.Z)
	e.Z.Multiply(&c.Z, &c.T)
	e.T.Multiply(&c.X, &c.Y)
}

// fromCompleted sets p to c in projective coordinates.
func (p *projective) fromCompleted(c *completed) {
	p.X.Multiply(&c.X, &c.T)
	p.Y.Multiply(&c.Y, &c.Z)
	p.Z.Multiply(&c.Z, &c.T)
}
