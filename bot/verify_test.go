package bot

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"strings"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// smallOrder are the encodings of the eight points of small order ("Taming
// the many EdDSAs", Chalkias et al., 2020): keys crypto/ed25519 takes, and
// for which it accepts some signatures on any message.
var smallOrder = []string{
	"0100000000000000000000000000000000000000000000000000000000000000", // identity
	"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
	"0000000000000000000000000000000000000000000000000000000000000000", // order 4
	"0000000000000000000000000000000000000000000000000000000000000080", // order 4
	"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
	"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", // order 8
	"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
	"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", // order 8
}

// TestCheckPublicKey: keys that cannot verify anything are refused with a
// reason, real keys and small-order points (which crypto/ed25519 takes) are
// not. It also holds CheckPublicKey to the wording of crypto/ed25519's
// errors, which it reads.
func TestCheckPublicKey(t *testing.T) {
	real := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32)).Public().(ed25519.PublicKey)
	keys := [][]byte{real}
	for _, s := range smallOrder {
		keys = append(keys, unhex(t, s))
	}
	for _, k := range keys {
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
