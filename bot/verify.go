package bot

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha512"
	"errors"
	"hash"
	"sync"

	"filippo.io/edwards25519"

	"nimbot/internal/fixedbase"
)

// CheckPublicKey reports why key cannot verify Discord's signatures, or nil:
// it must be 32 bytes that decode to a point of the Ed25519 curve. A key that
// does not would refuse every request (crypto/ed25519 panics on the wrong
// length and rejects every signature for a key off the curve), so the
// configuration is refused before serving.
func CheckPublicKey(key ed25519.PublicKey) error {
	_, err := decodeKey(key)
	return err
}

// verifier checks Ed25519 signatures against one public key, decoded once.
//
// It is crypto/ed25519.Verify (RFC 8032 pure Ed25519, cofactorless, as Go
// and Discord's examples check it) step for step, less what is paid per
// request there only because the key could change: decoding the key (a
// field square root), copying the signed message (timestamp + body) into
// one buffer (the parts are hashed where they are), and above all the
// double scalar multiplication R' = [k](-A) + [S]B walking every bit of both
// scalars. The key is fixed for the life of the process, so its multiples
// are tabulated once, like the generator's (internal/fixedbase), and R' is a
// sum of table entries with ten doublings: a third of the time. The
// differential tests in verify_test.go hold it to crypto/ed25519.Verify.
type verifier struct {
	a      [ed25519.PublicKeySize]byte // the key as configured: hashed into every k
	minusA *fixedbase.Table            // multiples of -A, so that R' = [k](-A) + [S]B is one sum
	base   *fixedbase.Table            // multiples of the generator B, shared by every verifier
}

// newVerifier decodes key and tabulates its multiples: about 0.25 ms, ten
// verifications' worth, once per process (BENCHMARKS.md).
func newVerifier(key ed25519.PublicKey) (*verifier, error) {
	A, err := decodeKey(key)
	if err != nil {
		return nil, err
	}
	v := &verifier{
		minusA: fixedbase.New(A.Negate(A)),
		base:   fixedbase.Generator(),
	}
	copy(v.a[:], key)
	return v, nil
}

// decodeKey returns the point key encodes, or why it cannot verify anything.
func decodeKey(key ed25519.PublicKey) (*edwards25519.Point, error) {
	if len(key) != ed25519.PublicKeySize {
		return nil, errors.New("not 32 bytes long")
	}
	A, err := new(edwards25519.Point).SetBytes(key)
	if err != nil {
		return nil, errors.New("not an Ed25519 public key: it does not decode to a point of the curve")
	}
	return A, nil
}

// hramState is the SHA-512 state and scratch space of one verification,
// pooled: crypto/sha512's digest is reachable only through hash.Hash, so
// every Write would move a fresh one (and the scratch) to the heap.
type hramState struct {
	h   hash.Hash
	buf [128]byte // R || A || the start of the prefix, then the digest
}

var hramStates = sync.Pool{New: func() any { return &hramState{h: sha512.New()} }}

// verify reports whether sig is a valid signature by the key of the message
// prefix || msg (Discord signs the timestamp header followed by the body).
// Its answer is crypto/ed25519.Verify(key, prefix||msg, sig)'s for every
// input.
func (v *verifier) verify(sig []byte, prefix string, msg []byte) bool {
	if len(sig) != ed25519.SignatureSize || sig[63]&224 != 0 {
		return false
	}
	// S must be canonical (S < l): otherwise S and S+l would both verify,
	// and the signature would be malleable.
	var S edwards25519.Scalar
	if _, err := S.SetCanonicalBytes(sig[32:]); err != nil {
		return false
	}

	// k = SHA-512(R || A || M) mod l.
	st := hramStates.Get().(*hramState)
	st.h.Reset()
	b := append(append(st.buf[:0], sig[:32]...), v.a[:]...)
	for {
		n := min(len(prefix), cap(b)-len(b))
		b = append(b, prefix[:n]...)
		prefix = prefix[n:]
		st.h.Write(b)
		if prefix == "" {
			break
		}
		b = b[:0]
	}
	st.h.Write(msg)
	var k edwards25519.Scalar
	_, err := k.SetUniformBytes(st.h.Sum(st.buf[:0]))
	hramStates.Put(st)
	if err != nil {
		panic("bot: SHA-512 digest is not 64 bytes")
	}

	// [S]B = R + [k]A  <=>  [k](-A) + [S]B = R, compared as encodings (as
	// crypto/ed25519 does: a non-canonical encoding of R never matches).
	R := fixedbase.VarTimeDoubleScalarMult(&k, v.minusA, &S, v.base)
	return bytes.Equal(sig[:32], R.Bytes())
}
