package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"filippo.io/edwards25519"
)

// TestSignerMatchesSign holds the signer to crypto/ed25519.Sign byte for
// byte, over many keys and messages: empty, short, around SHA-512's block
// size, and a click's size.
func TestSignerMatchesSign(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var st sigState
	lengths := []int{0, 1, 10, 63, 64, 111, 112, 127, 128, 129, 240, 1000, 3300, 8192}
	for key := range 300 {
		seed := make([]byte, ed25519.SeedSize)
		for i := range seed {
			seed[i] = byte(rng.Uint32())
		}
		if key == 0 {
			clear(seed)
		}
		priv := ed25519.NewKeyFromSeed(seed)
		k := expandKey(priv)
		for _, n := range lengths {
			if key > 20 && n > 1000 {
				continue // the long ones for a few keys: the time goes to SHA-512
			}
			msg := make([]byte, n)
			for i := range msg {
				msg[i] = byte(rng.Uint32())
			}
			want := ed25519.Sign(priv, msg)
			if got := k.sign(&st, msg); !bytes.Equal(got, want) {
				t.Fatalf("key %x, %d-byte message:\n got %x\nwant %x", seed, n, got, want)
			}
		}
	}
}

// TestBaseMult holds baseMult to edwards25519's constant-time
// ScalarBaseMult for the scalars at the edges (0, 1, each digit's extremes,
// l−1) and random ones.
func TestBaseMult(t *testing.T) {
	scalars := [][]byte{
		make([]byte, 32), // 0: every digit zero, the identity
	}
	le := func(words ...uint64) []byte {
		b := make([]byte, 32)
		for i, w := range words {
			binary.LittleEndian.PutUint64(b[8*i:], w)
		}
		return b
	}
	scalars = append(scalars,
		le(1), le(127), le(128), le(129), le(255), le(256),
		le(0x8080808080808080, 0x8080808080808080, 0x8080808080808080, 0x0080808080808080),
		le(0x7f7f7f7f7f7f7f7f, 0x7f7f7f7f7f7f7f7f, 0x7f7f7f7f7f7f7f7f, 0x0f7f7f7f7f7f7f7f),
		le(0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0fffffffffffffff),
		// l − 1, the largest scalar.
		le(0x5812631a5cf5d3ec, 0x14def9dea2f79cd6, 0, 0x1000000000000000),
	)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		wide := make([]byte, 64)
		for i := range wide {
			wide[i] = byte(rng.Uint32())
		}
		var s edwards25519.Scalar
		s.SetUniformBytes(wide)
		scalars = append(scalars, s.Bytes())
	}
	for _, b := range scalars {
		var s edwards25519.Scalar
		if _, err := s.SetCanonicalBytes(b); err != nil {
			t.Fatalf("%x: %v", b, err)
		}
		want := new(edwards25519.Point).ScalarBaseMult(&s).Bytes()
		got := make([]byte, 32)
		baseMult(got, &s)
		if !bytes.Equal(got, want) {
			t.Fatalf("[%x]B:\n got %x\nwant %x", b, got, want)
		}
	}
}

// FuzzSigner compares the signer with crypto/ed25519.Sign on any seed and
// message.
func FuzzSigner(f *testing.F) {
	f.Add(make([]byte, 32), []byte(""))
	f.Add(bytes.Repeat([]byte{0xff}, 32), []byte("1767268800{\"type\":3}"))
	f.Add([]byte("0123456789abcdef0123456789abcdef"), bytes.Repeat([]byte("x"), 200))
	var st sigState
	f.Fuzz(func(t *testing.T, seed, msg []byte) {
		if len(seed) < ed25519.SeedSize {
			seed = append(seed, make([]byte, ed25519.SeedSize-len(seed))...)
		}
		priv := ed25519.NewKeyFromSeed(seed[:ed25519.SeedSize])
		want := ed25519.Sign(priv, msg)
		if got := expandKey(priv).sign(&st, msg); !bytes.Equal(got, want) {
			t.Fatalf("seed %x, message %q:\n got %x\nwant %x", seed[:ed25519.SeedSize], msg, got, want)
		}
	})
}

// BenchmarkSign is one signature of a click-sized message (3,300 bytes):
// old is crypto/ed25519.Sign, new the signer.
func BenchmarkSign(b *testing.B) {
	_, priv, _ := ed25519.GenerateKey(nil)
	msg := bytes.Repeat([]byte(`{"custom_id":"m:1:2:3"}`), 3300/23)
	b.Run("old", func(b *testing.B) {
		b.ReportAllocs()
		defer threadCPU(b)()
		for b.Loop() {
			ed25519.Sign(priv, msg)
		}
	})
	b.Run("new", func(b *testing.B) {
		k := expandKey(priv)
		st := sigState{h: sha512.New()}
		k.sign(&st, msg) // the table, built once per process
		b.ReportAllocs()
		defer threadCPU(b)()
		for b.Loop() {
			k.sign(&st, msg)
		}
	})
}
