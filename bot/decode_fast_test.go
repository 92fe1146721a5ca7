package bot

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"text/template"

	"github.com/bwmarrin/discordgo"
)

// checkDecode decodes body with decodeStd (encoding/json) and with
// decodeInteraction and decodeFast, and fails t where they disagree: on
// whether body is refused, or on the interaction decoded. It reports
// whether decodeFast took body itself. decodeInteraction and decodeFast
// decode a copy of body that is overwritten before the comparison: request
// bodies are read into pooled buffers, so nothing decoded may share their
// bytes.
func checkDecode(t testing.TB, body []byte) (fast bool) {
	t.Helper()
	var want, got, quick discordgo.Interaction
	werr := decodeStd(body, &want)
	scratch := append([]byte(nil), body...)
	gerr := decodeInteraction(scratch, &got)
	copy(scratch, bytes.Repeat([]byte{'#'}, len(scratch)))
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: encoding/json says %v, decodeInteraction %v", body, werr, gerr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decodeInteraction gives\n%#v\nencoding/json\n%#v", body, got, want)
	}
	scratch = append(scratch[:0], body...)
	ok := decodeFast(scratch, &quick)
	copy(scratch, bytes.Repeat([]byte{'#'}, len(scratch)))
	if !ok {
		return false
	}
	if werr != nil {
		t.Fatalf("%q: decodeFast takes what encoding/json refuses: %v", body, werr)
	}
	if !reflect.DeepEqual(quick, want) {
		t.Fatalf("%q: decodeFast gives\n%#v\nencoding/json\n%#v", body, quick, want)
	}
	return true
}

// decodeFixtures are Discord's documented payloads (bot's fixtures, and
// commands' filled in as a command, an autocompletion, a select menu
// click and a modal) and a board click.
func decodeFixtures(t testing.TB) map[string][]byte {
	out := map[string][]byte{"board click": []byte(boardClick)}
	files, _ := filepath.Glob("testdata/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
	}
	tmpl, err := template.ParseGlob("../commands/testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tmpl.Templates() {
		for _, typ := range []discordgo.InteractionType{discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete} {
			var b bytes.Buffer
			if err := tt.Execute(&b, map[string]any{
				"AppID": "1170000000000000001", "GuildID": "1190000000000000001", "ChannelID": "1190000000000000010",
				"ID": "1180000000000000401", "UserID": "1190000000000000100", "Username": "alice", "Permissions": "2248473465835073",
				"Type": int(typ), "Sub": "start", "Options": `[{"name":"heaps","type":3,"value":"3 4 5","focused":true}]`,
				"Resolved": `{"users":{"1190000000000000100":{"id":"1190000000000000100","username":"alice"}}}`,
				"CustomID": "play/7/0/all", "Values": `["C5","\u00e9"]`, "Value": `"3 4 5"`, "ComponentType": 3,
				"MessageID": "1180000000000000500", "MessageFlags": 64,
			}); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("commands/%s as %d", tt.Name(), typ)] = b.Bytes()
		}
	}
	if len(out) < 4+2*9 {
		t.Fatalf("found only %d fixtures", len(out))
	}
	return out
}

// oddInteractions are inputs where a one-pass decoder could part from
// encoding/json: keys by case, escapes and Unicode folding; repeated keys;
// strings, numbers and literals at the edges of the grammar; values of the
// wrong kind; nesting; what comes after the object.
var oddInteractions = []string{
	`{"ID":"x","Type":3,"DATA":{"Custom_ID":"a","component_type":2},"Message":{"ID":"m","Channel_Id":"c"}}`,
	`{"Id":"x","id":"y","iD":"z"}`,
	`{"\u0069d":"x","type":1}`,
	"{\"to\u212aen\":\"kelvin\",\"token\":\"t\"}",
	"{\"app_permi\u017fsions\":\"8\"}",
	`{"message":{"id":"1"},"message":{"channel_id":"2"}}`,
	`{"message":{"id":"1"},"message":null}`,
	`{"message":null,"message":{"ID":"3"}}`,
	`{"message":{"id":null,"channel_id":"\u0041\ud83d\ude00"}}`,
	`{"message":{"id":5}}`, `{"message":[]}`, `{"message":"x"}`, `{"message":true}`, `{"message":{}}`,
	`{"message":{"\u0069d":"esc"}}`, "{\"message\":{\"id\":\"\xff\"}}",
	`{"message":{"flags":64}}`, `{"message":{"FLAGS":64,"id":"1"}}`, `{"message":{"flags":64,"flags":null}}`,
	`{"message":{"flags":64},"message":{"id":"1"}}`, `{"message":{"flags":64},"message":{"flags":0}}`,
	`{"message":{"flags":"64"}}`, `{"message":{"flags":6.4e1}}`, `{"message":{"flags":1.5}}`, `{"message":{"flags":-64}}`,
	`{"message":{"flags":9223372036854775807}}`, `{"message":{"flags":9223372036854775808}}`, `{"message":{"flags":true}}`,
	`{"message":{"\u0066lags":64}}`, `{"message":{"flags":064}}`,
	`{"id":"\ud83d\ude00"}`, `{"id":"\ud800"}`, `{"id":"\udc00\ud800x"}`, `{"id":"a\u0000b"}`, `{"id":"\/\b\f\n\r\t\"\\"}`,
	"{\"id\":\"\xff\"}", "{\"id\":\"\xed\xa0\x80\"}", "{\"id\":\"\xc3\xa9\"}", "{\"id\":\"a\x01\"}", "{\"id\":\"a\x7f\"}",
	`{"id":"\x"}`, `{"id":"\u12"}`, `{"id":"\u123"}`, `{"message":{"x":"\u123"}}`, `{"id":"\u12G4"}`, `{"id":"abc`, `{"id":1}`, `{"id":null}`, `{"id":true}`,
	`{"type":3.0}`, `{"type":256}`, `{"type":255}`, `{"type":-1}`, `{"type":1e0}`, `{"type":"3"}`, `{"type":null}`,
	`{"type":01}`, `{"type":-0}`, `{"type":0}`,
	`{"version":-5}`, `{"version":99999999999999999999}`, `{"version":9223372036854775807}`, `{"version":9223372036854775808}`,
	`{"context":18446744073709551615}`, `{"context":18446744073709551616}`, `{"context":123456789012345678}`,
	`{"app_permissions":"123"}`, `{"app_permissions":"0123"}`, `{"app_permissions":123}`, `{"app_permissions":null}`,
	`{"app_permissions":"null"}`, `{"app_permissions":"-1"}`, `{"app_permissions":"9223372036854775808"}`,
	`{"app_permissions":""}`, `{"app_permissions":"1e3"}`, `{"app_permissions":"\u0031"}`, `{"app_permissions":" 1"}`,
	`{"type":3}`, `{"type":3,"data":null}`, `{"type":3,"data":[]}`, `{"type":3,"data":{}}`, `{"type":3,"data":"x"}`,
	`{"type":3,"data":{"values":["a","b"],"values":[null]}}`, `{"type":3,"data":{"values":["a","b"],"values":["c"]}}`,
	`{"type":3,"data":{"values":null,"values":["c"]}}`, `{"type":3,"data":{"values":[]}}`, `{"type":3,"data":{"values":[ ]}}`,
	`{"type":3,"data":{"values":["\u00e9", "x" ]}}`, `{"type":3,"data":{"values":[1]}}`, `{"type":3,"data":{"values":{}}}`,
	`{"type":3,"data":{"Values":["a"],"CUSTOM_ID":"b","Component_Type":3,"resolved":{"users":{"1":{"id":"1"}}}}}`,
	`{"type":3,"data":{"component_type":-3}}`, `{"type":3,"data":{"custom_id":"a"},"data":{"component_type":2}}`,
	`{"type":2,"data":{"name":"start","options":[{"name":"heaps","type":3,"value":"3 4 5"}]}}`,
	`{"type":4,"data":{"name":"start","options":[{"name":"heaps","type":3,"value":"3","focused":true}]}}`,
	`{"type":5,"data":{"custom_id":"m","components":[{"type":1,"components":[{"type":4,"custom_id":"t","value":"v"}]}]}}`,
	`{"type":5,"data":{"components":7}}`, `{"type":2,"data":"x"}`, `{"type":9,"data":"x"}`, `{"type":1}`,
	`{"guild_locale":null}`, `{"guild_locale":"en-US","guild_locale":"fr"}`, `{"guild_locale":5}`, `{"guild_locale":"\u0066r"}`,
	`{"entitlements":[]}`, `{"entitlements":[ ]}`, `{"entitlements":null}`, `{"entitlements":[{"id":"1"}],"entitlements":[{"sku_id":"2"}]}`,
	`{"entitlements":[{"id":"1"}],"entitlements":[]}`,
	`{"member":{"nick":"a"},"member":{"deaf":true}}`, `{"member":{"nick":"a"},"member":null}`, `{"member":[]}`,
	`{"member":{"joined_at":"2024-05-01T12:00:00.000000+00:00","permissions":"8"}}`, `{"member":{"joined_at":"yesterday"}}`,
	`{"user":{"id":"1"},"user":{"username":"u"}}`, `{"user":7}`,
	`{"authorizing_integration_owners":{"0":"1"},"authorizing_integration_owners":{"1":"2"}}`,
	`{"authorizing_integration_owners":{"x":"1"}}`,
	`{"authorizing_integration_owners":{"0":null,"1":"\u0032","01":"3"}}`, `{"authorizing_integration_owners":{"0":"1","0":"2"}}`,
	`{"authorizing_integration_owners":{"18446744073709551615":"x"}}`, `{"authorizing_integration_owners":{"-1":"x"}}`,
	`{"authorizing_integration_owners":{"0":"1"},"authorizing_integration_owners":null}`, `{"authorizing_integration_owners":{}}`,
	`{"authorizing_integration_owners":{"0":5}}`, `{"authorizing_integration_owners":[]}`, `{"Authorizing_Integration_Owners":{"1":"x"}}`,
	`{"member":{"GUILD_ID":"g","Joined_At":"2024-05-01T12:00:00Z","nick":null,"deaf":true,"mute":false,"avatar":"a","banner":"b",
"user":{"ID":"1","email":"e","username":"u","avatar":null,"locale":"fr","discriminator":"0","global_name":"G","token":"t","verified":true,
"mfa_enabled":false,"banner":"x","accent_color":12,"bot":true,"public_flags":131141,"premium_type":2,"system":null,"flags":-1,"x":[{}]},
"roles":["1","2"],"premium_since":"2024-05-01T12:00:00.5Z","flags":3,"pending":null,"permissions":"8","communication_disabled_until":null}}`,
	`{"member":{"joined_at":null}}`, `{"member":{"joined_at":"2024-13-01T12:00:00Z"}}`, `{"member":{"joined_at":5}}`, `{"member":{"joined_at":{}}}`,
	`{"member":{"premium_since":"2024-05-01T12:00:00Z"},"member":{"premium_since":null}}`, `{"member":{"premium_since":"x"}}`,
	`{"member":{"premium_since":"2024-05-01T12:00:00Z","premium_since":"2025-05-01T12:00:00+02:00"}}`, `{"member":{"premium_since":[]}}`,
	`{"member":{"roles":[]}}`, `{"member":{"roles":null}}`, `{"member":{"roles":["a","b"],"roles":["c"]}}`, `{"member":{"roles":[1]}}`,
	`{"member":{"roles":["\u00e9"]}}`, `{"member":{"roles":"x"}}`, `{"member":{"deaf":"true"}}`, `{"member":{"deaf":1}}`,
	`{"member":{"permissions":8}}`, `{"member":{"permissions":null}}`, `{"member":{"permissions":"-8"}}`, `{"member":{"flags":1.5}}`,
	`{"member":{"user":null}}`, `{"member":{"user":{"id":"1"},"user":{"username":"u"}}}`, `{"member":{"user":[]}}`, `{"member":"x"}`,
	`{"member":{"nick":5}}`, `{"member":{"nick":"\u00e9"}}`, `{"member":{"nick":"a"}}`, `{"member":null,"member":{"mute":true}}`,
	`{"user":{"id":"1","id":null}}`, `{"user":{"bot":"yes"}}`, `{"user":{"accent_color":null,"accent_color":-5}}`, `{"user":{"public_flags":1e3}}`,
	`{"user":{"premium_type":99999999999999999999}}`, `{"user":null}`, `{"user":{"\u0069d":"1"}}`, `{"user":{"Id":"1","iD":"2"}}`,
	`{"a_key_much_longer_than_any_field_name_at_all":[1,{"b":null}],"id":"x"}`,
	` {"id":"x"} `, "\t\r\n{\"id\":\"x\"}\n", `{"id":"x"} x`, `{}{}`, ``, ` `, `null`, `[]`, `"x"`, `1`, `{`, `}`,
	`{"a":1,}`, `{"a" 1}`, `{,}`, `{"a":1 "b":2}`, `{"a":[1,]}`, `{"a":[,1]}`, `{"a":[1 2]}`, `{1:2}`, `{"a":}`,
	`{"a":tru}`, `{"a":nulll}`, `{"a":True}`, `{"a":-}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":1e+}`, `{"a":01}`,
	`{"a":-0.0e-0}`, `{"a":1E+2}`, `{"a":+1}`, `{"a":0x1}`, `{"a":Infinity}`, `{"a":NaN}`, "\xef\xbb\xbf{}",
	`{"message":{"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `},"id":"deep"}`,
	`{"a":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
}

// TestDecodeFastTakesFixtures: the fast path decodes every documented
// payload itself (it does not leave them all to encoding/json), as
// encoding/json does.
func TestDecodeFastTakesFixtures(t *testing.T) {
	for name, body := range decodeFixtures(t) {
		if !checkDecode(t, body) {
			t.Errorf("%s: left to encoding/json", name)
		}
	}
}

// TestDecodeFastDifferential: decodeFast and encoding/json agree on the odd
// inputs above and on every single-byte change, deletion and truncation of
// a board click.
func TestDecodeFastDifferential(t *testing.T) {
	fast := 0
	for _, body := range oddInteractions {
		if checkDecode(t, []byte(body)) {
			fast++
		}
	}
	t.Logf("%d of %d odd inputs decoded by the fast path", fast, len(oddInteractions))
	click := []byte(boardClick)
	n := 0
	for p := range click {
		checkDecode(t, click[:p])
		for _, c := range []byte{'"', '\\', '}', ']', ',', ':', '0', 'X', ' ', 0xff} {
			b := append([]byte(nil), click...)
			b[p] = c
			checkDecode(t, b)
			n++
		}
		checkDecode(t, append(append([]byte(nil), click[:p]...), click[p+1:]...))
	}
	t.Logf("%d mutations", n)
}

// FuzzDecodeInteraction: for any body, decodeInteraction refuses it exactly
// when encoding/json does and otherwise decodes the same interaction, and
// the fast path never takes what encoding/json refuses.
func FuzzDecodeInteraction(f *testing.F) {
	for _, body := range decodeFixtures(f) {
		f.Add(body)
	}
	for _, body := range oddInteractions {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecode(t, body)
	})
}
