package bot

import (
	"crypto/ed25519"
	"errors"
	"strings"
)

// CheckPublicKey reports why key cannot verify Discord's signatures, or nil:
// it must be 32 bytes that decode to a point of the Ed25519 curve. A key that
// does not would refuse every request (crypto/ed25519 panics on the wrong
// length and rejects every signature for a key off the curve), so the
// configuration is refused before serving.
//
// crypto/ed25519 has no call that only decodes a key, but it decodes the key
// before it looks at the signature: asked to verify an empty signature, its
// error names the key when the key is at fault, the signature's length when
// not. TestCheckPublicKey holds that wording to keys of both kinds.
func CheckPublicKey(key ed25519.PublicKey) error {
	if len(key) != ed25519.PublicKeySize {
		return errors.New("not 32 bytes long")
	}
	if err := ed25519.VerifyWithOptions(key, nil, nil, &ed25519.Options{}); err != nil && strings.Contains(err.Error(), "public key") {
		return errors.New("not an Ed25519 public key: it does not decode to a point of the curve")
	}
	return nil
}
