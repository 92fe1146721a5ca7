package match

import "testing"

// TestIsSnowflake: a Discord id is 17 to 20 digits within a uint64, the
// one rule every id nimbot forgets by is checked against.
func TestIsSnowflake(t *testing.T) {
	for s, want := range map[string]bool{
		"53908232506183680": true, "1200000000000000001": true, "18446744073709551615": true,
		"": false, "7": false, "5390823250618368": false, "18446744073709551616": false, "123456789012345678901": false,
		"-5390823250618368": false, "+53908232506183680": false, "5390823250618368x": false, BotID: false, Tombstone: false,
	} {
		if got := IsSnowflake(s); got != want {
			t.Errorf("IsSnowflake(%q) = %t, want %t", s, got, want)
		}
	}
}
