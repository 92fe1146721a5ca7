package bot

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"filippo.io/edwards25519"

	"nimbot/internal/cpuclock"
)

// The verifier must answer exactly as crypto/ed25519.Verify does, whatever
// it is given: these tests compare the two on valid signatures, on every
// single-bit corruption of them, on the encodings where Ed25519
// implementations are known to disagree (S >= l, small-order and
// non-canonical R and A; see "Taming the many EdDSAs", Chalkias et al.,
// 2020), and FuzzVerify on anything else.

// same checks that the verifier for pub answers crypto/ed25519.Verify's
// answer for the message prefix||msg, and returns that answer.
func same(t testing.TB, pub []byte, prefix string, msg, sig []byte) bool {
	t.Helper()
	want := ed25519.Verify(pub, append([]byte(prefix), msg...), sig)
	v, err := newVerifier(pub)
	if err != nil {
		if want {
			t.Fatalf("key %x refused (%v), but crypto/ed25519 accepts signature %x of %q", pub, err, sig, prefix+string(msg))
		}
		return false
	}
	if got := v.verify(sig, prefix, msg); got != want {
		t.Fatalf("key %x, signature %x, message %q (prefix %d bytes): verify says %v, crypto/ed25519 says %v",
			pub, sig, prefix+string(msg), len(prefix), got, want)
	}
	return want
}

// splits cuts m into a prefix and a rest at a few places, as the endpoint
// hashes the timestamp header and the body without joining them.
func splits(m []byte) []int {
	cuts := []int{0, len(m)}
	for _, c := range []int{1, 10, 63, 64, 65, 127, 128, 129, 300} {
		if c < len(m) {
			cuts = append(cuts, c)
		}
	}
	return cuts
}

// rfc8032 are the test vectors of RFC 8032, section 7.1 (Ed25519).
var rfc8032 = []struct{ name, seed, pub, msg, sig string }{
	{"TEST 1",
		"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
		"d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
		"",
		"e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
	{"TEST 2",
		"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
		"3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
		"72",
		"92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
	{"TEST 3",
		"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
		"fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
		"af82",
		"6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
	{"TEST 1024",
		"f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
		"278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
		"08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98" +
			"fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d8" +
			"79de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d" +
			"658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc" +
			"1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4fe" +
			"ba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e" +
			"06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbef" +
			"fefd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec" +
			"7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed" +
			"185ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb" +
			"2d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc2" +
			"4554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f27" +
			"088d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbc" +
			"c2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b0" +
			"7e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128bab" +
			"27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51ad" +
			"dd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429ec" +
			"96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb75" +
			"1fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c4" +
			"2f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8c" +
			"a61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34dff" +
			"7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d" +
			"78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649d" +
			"e6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e48" +
			"8acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32" +
			"ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e6" +
			"aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5fb" +
			"93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b50" +
			"d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef13" +
			"69546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380db" +
			"2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0" +
			"618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d00",
		"d686294b743c6760c6a78a2c4c2fc76115c2600b8f083acde59e7cee32578c0f59ea4219ab9b5896795e4e2b87a30270aa0e3099eee944e9e67a1b22df41ff07"},
	{"TEST SHA(abc)",
		"833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
		"ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
		"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
		"dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"},
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVerifyRFC8032: the RFC's signatures verify, whole and split, and the
// vectors are the RFC's (crypto/ed25519 derives the same key and signature
// from each seed).
func TestVerifyRFC8032(t *testing.T) {
	for _, tv := range rfc8032 {
		t.Run(tv.name, func(t *testing.T) {
			priv := ed25519.NewKeyFromSeed(unhex(t, tv.seed))
			pub, msg, sig := unhex(t, tv.pub), unhex(t, tv.msg), unhex(t, tv.sig)
			if !bytes.Equal(priv.Public().(ed25519.PublicKey), pub) || !bytes.Equal(ed25519.Sign(priv, msg), sig) {
				t.Fatal("vector mistyped: crypto/ed25519 derives another key or signature from its seed")
			}
			for _, cut := range splits(msg) {
				if !same(t, pub, string(msg[:cut]), msg[cut:], sig) {
					t.Fatalf("split at %d: refused", cut)
				}
			}
			if same(t, pub, "", append(msg, 0), sig) {
				t.Fatal("accepted with a byte appended to the message")
			}
		})
	}
}

// l is the order of the prime-order subgroup, little-endian.
var l = [32]byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}

// addLE returns a+b, 256-bit little-endian, and whether it overflowed.
func addLE(a, b []byte) ([]byte, bool) {
	out := make([]byte, 32)
	var carry uint64
	for i := 0; i < 32; i += 8 {
		var s uint64
		s, carry = bits.Add64(binary.LittleEndian.Uint64(a[i:]), binary.LittleEndian.Uint64(b[i:]), carry)
		binary.LittleEndian.PutUint64(out[i:], s)
	}
	return out, carry != 0
}

// TestVerifyRandom: over random keys and messages (lengths around a
// click's 2.5 KB included), every valid signature verifies, and every
// signature with one bit of R or S flipped, with S+l in place of S (the
// classic malleability), or with S at or past l is answered as
// crypto/ed25519 answers it: refused.
func TestVerifyRandom(t *testing.T) {
	src := rand.NewChaCha8([32]byte{'n', 'i', 'm', 'b', 'o', 't'})
	rng := rand.New(src)
	// keys, and the stride of the bits flipped in one signature per key
	// (a click-sized message's)
	keys, stride := 8, 1
	if testing.Short() || raceEnabled {
		keys, stride = 1, 7
	}
	for range keys {
		var seed [32]byte
		src.Read(seed[:])
		priv := ed25519.NewKeyFromSeed(seed[:])
		pub := []byte(priv.Public().(ed25519.PublicKey))
		for j, n := range []int{0, 1, 10 + rng.IntN(100), 1000 + rng.IntN(2000), 2487} {
			msg := make([]byte, n)
			src.Read(msg)
			cut := 0
			if n > 0 {
				cut = rng.IntN(min(n, 40) + 1)
			}
			prefix, body := string(msg[:cut]), msg[cut:]
			sig := ed25519.Sign(priv, msg)
			if !same(t, pub, prefix, body, sig) {
				t.Fatal("a valid signature was refused")
			}
			if j == 3 {
				for bit := 0; bit < 8*ed25519.SignatureSize; bit += stride {
					bad := bytes.Clone(sig)
					bad[bit/8] ^= 1 << (bit % 8)
					if same(t, pub, prefix, body, bad) {
						t.Fatalf("bit %d flipped: accepted", bit)
					}
				}
			}
			// S+l is the same scalar mod l: only the canonical check
			// refuses it. S+l always fits 256 bits (S < l < 2^253).
			sPlusL, _ := addLE(sig[32:], l[:])
			// 2^256-1 has its top three bits set, refused before
			// anything else; l and 2^253-1 do not, so they reach
			// SetCanonicalBytes.
			for _, s := range [][]byte{sPlusL, l[:], bytes.Repeat([]byte{0xff}, 32), append(bytes.Repeat([]byte{0xff}, 31), 0x1f)} {
				bad := append(bytes.Clone(sig[:32]), s...)
				if same(t, pub, prefix, body, bad) {
					t.Fatalf("S = %x accepted", s)
				}
			}
			for _, n := range []int{0, 63, 65, 128} {
				bad := make([]byte, n)
				copy(bad, sig)
				if same(t, pub, prefix, body, bad) {
					t.Fatalf("a %d-byte signature was accepted", n)
				}
			}
			same(t, pub, prefix, body, randomBytes(src, 64))
		}
	}
}

func randomBytes(src *rand.ChaCha8, n int) []byte {
	b := make([]byte, n)
	src.Read(b)
	return b
}

// oddEncodings are 32-byte strings around the curve's edge cases: the
// encodings of the eight small-order points, and for every y below 19,
// both its canonical encoding and the non-canonical y+p (which
// SetBytes accepts, as Go does), each with the sign bit clear and set.
// Many do not decode at all; that is part of the point.
func oddEncodings(t testing.TB) (all [][]byte, smallOrder [][]byte) {
	t.Helper()
	p := unhex(t, "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f") // 2^255-19
	for _, s := range []string{
		"0100000000000000000000000000000000000000000000000000000000000000", // identity
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
		"0000000000000000000000000000000000000000000000000000000000000000", // order 4
		"0000000000000000000000000000000000000000000000000000000000000080", // order 4
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", // order 8
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", // order 8
	} {
		e := unhex(t, s)
		var P, eight edwards25519.Point
		if _, err := P.SetBytes(e); err != nil {
			t.Fatalf("%s does not decode", s)
		}
		if eight.MultByCofactor(&P).Equal(edwards25519.NewIdentityPoint()) != 1 {
			t.Fatalf("%s is not of small order", s)
		}
		smallOrder = append(smallOrder, e)
	}
	all = append(all, smallOrder...)
	for y := range byte(19) {
		canon := make([]byte, 32)
		canon[0] = y
		nonCanon, _ := addLE(canon, p)
		for _, e := range [][]byte{canon, nonCanon} {
			all = append(all, e, append(bytes.Clone(e[:31]), e[31]|0x80))
		}
	}
	return all, smallOrder
}

// TestVerifyOddPoints: small-order and non-canonical encodings as R and as
// the public key A, with S zero (and one or random for small-order R), are answered as
// crypto/ed25519 answers them. Some are accepted by both, for any message:
// with A and R the identity and S = 0, [k](-A) + [0]B is the identity
// whatever k is.
func TestVerifyOddPoints(t *testing.T) {
	src := rand.NewChaCha8([32]byte{'o', 'd', 'd'})
	odd, small := oddEncodings(t)
	real := []byte(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32)).Public().(ed25519.PublicKey))
	one := make([]byte, 32)
	one[0] = 1
	msg := []byte(`{"type":3,"data":{"custom_id":"x"}}`)
	accepted, refusedKeys := 0, 0
	keys, Rs := slices.Concat(odd, [][]byte{real}), odd
	if testing.Short() || raceEnabled {
		// y = 0, 1 and 2 in their four forms each: y = 2 is off the curve.
		keys, Rs = slices.Concat(small, odd[len(small):][:12], [][]byte{real}), small
	}
	for _, A := range keys {
		if _, err := newVerifier(A); err != nil {
			refusedKeys++
		}
		for _, R := range Rs {
			Ss := [][]byte{make([]byte, 32)}
			if slices.ContainsFunc(small, func(e []byte) bool { return bytes.Equal(e, R) }) {
				below := randomBytes(src, 32)
				below[31] = 0 // below 2^248 < l
				Ss = append(Ss, one, below)
			}
			for _, S := range Ss {
				if same(t, A, "1700000000", msg, append(bytes.Clone(R), S...)) {
					accepted++
				}
			}
		}
	}
	// Both answers occur, so the comparison is not between two functions
	// that always say no.
	if accepted == 0 || refusedKeys == 0 {
		t.Fatalf("accepted %d, keys refused %d: the cases do not reach both answers", accepted, refusedKeys)
	}
}

// TestVerifyMixedOrderKey: with a key that has a small-order component,
// A = [a]B + T where T has order 8, an honestly computed signature (S = r + k·a)
// satisfies [S]B = R + [k]A only when [k]T is the identity, one message in
// eight. Cofactorless verification (crypto/ed25519's, and so the
// verifier's) refuses the others, where cofactored verification would not:
// the verifier must agree with crypto/ed25519 on both kinds.
func TestVerifyMixedOrderKey(t *testing.T) {
	src := rand.NewChaCha8([32]byte{'m', 'i', 'x'})
	_, small := oddEncodings(t)
	var T edwards25519.Point
	if _, err := T.SetBytes(small[4]); err != nil { // order 8
		t.Fatal(err)
	}
	scalar := func() *edwards25519.Scalar {
		s, err := edwards25519.NewScalar().SetUniformBytes(randomBytes(src, 64))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := scalar()
	var A edwards25519.Point
	A.Add(new(edwards25519.Point).ScalarBaseMult(a), &T)
	pub := A.Bytes()
	kinds := map[bool]int{}
	for i := range 64 {
		msg := []byte(strings.Repeat("m", i))
		r := scalar()
		R := new(edwards25519.Point).ScalarBaseMult(r).Bytes()
		h := sha512.New()
		h.Write(R)
		h.Write(pub)
		h.Write(msg)
		k, err := edwards25519.NewScalar().SetUniformBytes(h.Sum(nil))
		if err != nil {
			t.Fatal(err)
		}
		S := edwards25519.NewScalar().MultiplyAdd(k, a, r)
		kinds[same(t, pub, "", msg, append(R, S.Bytes()...))]++
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Fatalf("accepted %d, refused %d of 64: expected some of each", kinds[true], kinds[false])
	}
}

// TestCheckPublicKey: keys that cannot verify anything are refused with a
// reason, real keys and small-order points (which crypto/ed25519 takes) are
// not.
func TestCheckPublicKey(t *testing.T) {
	real := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32)).Public().(ed25519.PublicKey)
	_, small := oddEncodings(t)
	for _, k := range append([][]byte{real}, small...) {
		if err := CheckPublicKey(k); err != nil {
			t.Errorf("%x refused: %v", k, err)
		}
	}
	for _, c := range []struct {
		key  []byte
		want string
	}{
		{nil, "32 bytes"},
		{real[:31], "32 bytes"},
		{append(bytes.Clone(real), 0), "32 bytes"},
		{bytes.Repeat([]byte{0xab}, 32), "point"},
		{unhex(t, "0200000000000000000000000000000000000000000000000000000000000000"), "point"}, // y = 2 is not on the curve
	} {
		err := CheckPublicKey(c.key)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%x: %v, want an error about %q", c.key, err, c.want)
		}
	}
}

// FuzzVerify compares the verifier with crypto/ed25519.Verify on anything:
// a key of 32 bytes is taken as it is (off the curve, small order,
// non-canonical), any other is a seed for a real key pair; the signed
// message is prefix||msg.
func FuzzVerify(f *testing.F) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	pub := []byte(priv.Public().(ed25519.PublicKey))
	for _, tv := range rfc8032 {
		msg, _ := hex.DecodeString(tv.msg)
		k, _ := hex.DecodeString(tv.pub)
		s, _ := hex.DecodeString(tv.sig)
		f.Add(k, "", msg, s)
	}
	body := []byte(`{"type":3,"token":"t","data":{"custom_id":"move:1:2:a","component_type":3,"values":["A2"]}}`)
	f.Add(pub, "1700000000", body, ed25519.Sign(priv, append([]byte("1700000000"), body...)))
	f.Add([]byte("seed"), "", []byte{}, make([]byte, 64))
	f.Add(make([]byte, 32), "", []byte("x"), append(make([]byte, 32), l[:]...))
	f.Fuzz(func(t *testing.T, key []byte, prefix string, msg, sig []byte) {
		if len(key) != ed25519.PublicKeySize {
			seed := sha512.Sum512(key)
			key = ed25519.NewKeyFromSeed(seed[:32]).Public().(ed25519.PublicKey)
		}
		same(t, key, prefix, msg, sig)
	})
}

// BenchmarkVerifier is the signature check of one click (testdata's
// component.json, 2.5 KB): "crypto-ed25519" as the endpoint did it before
// the verifier (timestamp and body copied into one message, the key decoded
// by crypto/ed25519.Verify), "verifier" as it does now.
func BenchmarkVerifier(b *testing.B) {
	body, err := os.ReadFile(filepath.Join("testdata", "component.json"))
	if err != nil {
		b.Fatal(err)
	}
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	pub := priv.Public().(ed25519.PublicKey)
	const ts = "1700000000"
	sig := ed25519.Sign(priv, append([]byte(ts), body...))
	b.Run("crypto-ed25519", func(b *testing.B) {
		b.ReportAllocs()
		c0 := cpuclock.Process()
		for b.Loop() {
			msg := make([]byte, 0, len(ts)+len(body))
			msg = append(append(msg, ts...), body...)
			if !ed25519.Verify(pub, msg, sig) {
				b.Fatal("refused")
			}
		}
		reportCPU(b, c0)
	})
	b.Run("verifier", func(b *testing.B) {
		v, err := newVerifier(pub)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		c0 := cpuclock.Process()
		for b.Loop() {
			if !v.verify(sig, ts, body) {
				b.Fatal("refused")
			}
		}
		reportCPU(b, c0)
	})
}

// reportCPU reports the process's CPU time per operation since c0: on a
// shared machine, steadier than the time on the clock.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64((cpuclock.Process()-c0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}
