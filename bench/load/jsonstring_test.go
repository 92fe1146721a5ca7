package main

import (
	"encoding/json"
	"testing"
)

// TestJSONString: jsonString decodes a string token as json.Unmarshal does,
// the escapes it decodes itself and those it leaves to encoding/json.
func TestJSONString(t *testing.T) {
	for _, raw := range []string{`""`, `"plain"`, `"\u003c@123\u003e to move"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"é ✓ \u00e9\u2028"`,
		`"\u0000"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"` + "\xff" + `"`, `"x\u12"`, `"x\u12zz"`, `"\x"`, `"end\"`, `"\uD83D\uDE00 mixed \u003C"`} {
		got, err := jsonString([]byte(raw))
		var want string
		wantErr := json.Unmarshal([]byte(raw), &want)
		if (err == nil) != (wantErr == nil) || got != want {
			t.Errorf("%s: %q %v, json.Unmarshal's %q %v", raw, got, err, want, wantErr)
		}
	}
}
