package terminal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
)

// testDefinitions reads testdata/definitions.json: a /nim command with every
// option kind the parser handles (subcommands, a subcommand group, choices,
// bounds, users), as Discord's API returns registered commands.
func testDefinitions(t testing.TB) []*discordgo.ApplicationCommand {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "definitions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var defs []*discordgo.ApplicationCommand
	if err := json.Unmarshal(b, &defs); err != nil {
		t.Fatal(err)
	}
	return defs
}

// optionTree prints options compactly: name=value(type){children}.
func optionTree(opts []*discordgo.ApplicationCommandInteractionDataOption) string {
	var parts []string
	for _, o := range opts {
		s := o.Name
		if o.Value != nil {
			b, _ := json.Marshal(o.Value)
			s += "=" + string(b)
		}
		if len(o.Options) > 0 {
			s += "{" + optionTree(o.Options) + "}"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestParseLine(t *testing.T) {
	defs := testDefinitions(t)
	tests := []struct {
		line  string
		kind  lineKind
		tree  string // for commands
		press int
		picks []string
		as    int
		users []string
	}{
		{line: "", kind: lineEmpty},
		{line: "   ", kind: lineEmpty},
		{line: "help", kind: lineHelp},
		{line: "?", kind: lineHelp},
		{line: "quit", kind: lineQuit},
		{line: "EXIT", kind: lineQuit},
		{line: "/as 2", kind: lineAs, as: 1},
		{line: "/as @player1", kind: lineAs, as: 0},
		{line: "3", kind: linePress, press: 3},
		{line: "5 2", kind: linePress, press: 5, picks: []string{"2"}},
		{line: "5 1,3", kind: linePress, press: 5, picks: []string{"1", "3"}},
		{line: "/nim start heaps:3 4 5 misere:true", kind: lineCommand, tree: `start{heaps="3 4 5" misere=true}`},
		{line: "/nim start vs:bot heaps:3 4 5", kind: lineCommand, tree: `start{opponent="1300000000000000000" heaps="3 4 5"}`, users: []string{"1300000000000000000"}},
		{line: "/nim start opponent:@player2 variant:wythoff heaps:3 5", kind: lineCommand, tree: `start{opponent="1300000000000000012" variant="wythoff" heaps="3 5"}`, users: []string{"1300000000000000012"}},
		{line: "/NIM Start k:3 variant:Subtraction", kind: lineCommand, tree: `start{k=3 variant="subtraction"}`},
		{line: "/nim move heap:B take:2", kind: lineCommand, tree: `move{heap="B" take=2}`},
		{line: "nim move notation:A2 C1", kind: lineCommand, tree: `move{notation="A2 C1"}`},
		{line: "/nim hint level:3", kind: lineCommand, tree: `hint{level=3}`},
		{line: "/nim hint level:3 — the move and the reasoning", kind: lineCommand, tree: `hint{level=3}`},
		{line: "/nim hint", kind: lineCommand, tree: `hint`},
		{line: "/nim admin end game:7", kind: lineCommand, tree: `admin{end{game=7}}`},
		{line: "/nim move heap:A take:1 both:yes", kind: lineCommand, tree: `move{heap="A" take=1 both=true}`},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := words{}.parseLine(tt.line, defs, localPlayers, nimbotUser)
			if err != nil {
				t.Fatalf("parseLine: %v", err)
			}
			if got.kind != tt.kind {
				t.Fatalf("kind = %d, want %d", got.kind, tt.kind)
			}
			switch tt.kind {
			case lineCommand:
				if got.name != "nim" {
					t.Errorf("name = %q", got.name)
				}
				if tree := optionTree(got.options); tree != tt.tree {
					t.Errorf("options = %s, want %s", tree, tt.tree)
				}
				var users []string
				for _, u := range got.users {
					users = append(users, u.ID)
				}
				if !reflect.DeepEqual(users, tt.users) {
					t.Errorf("users = %v, want %v", users, tt.users)
				}
			case linePress:
				if got.press != tt.press || !reflect.DeepEqual(got.picks, tt.picks) {
					t.Errorf("press %d picks %v, want %d %v", got.press, got.picks, tt.press, tt.picks)
				}
			case lineAs:
				if got.player != tt.as {
					t.Errorf("player = %d, want %d", got.player, tt.as)
				}
			}
		})
	}
}

// TestParseLineErrors checks that every refusal names the problem and
// shows what to type.
func TestParseLineErrors(t *testing.T) {
	defs := testDefinitions(t)
	tests := []struct {
		line string
		want []string // substrings of the message
	}{
		{"hello there", []string{`don't understand "hello there"`, "/nim move heap:B take:2"}},
		{"/", []string{"needs a command"}},
		{"/chess start", []string{"no /chess command", "/nim"}},
		{"/nim", []string{"/nim needs a subcommand", "/nim start", "/nim move"}},
		{"/nim fly", []string{`no subcommand "fly"`, "/nim hint"}},
		{"/nim move heap:B take:two", []string{"option take", `"two" is not a whole number`, "/nim move"}},
		{"/nim move heap:B take:0", []string{"option take", "below the least allowed, 1"}},
		{"/nim move heap:B take:", []string{"option take", "no value"}},
		{"/nim move B2", []string{`"B2" is not an option`, "name:value"}},
		{"/nim move size:2", []string{`no option "size"`, "[heap:<text>]"}},
		{"/nim move heap:A heap:B", []string{"heap: given twice"}},
		{"/nim hint level:9", []string{`"9" is not one of 1|2|3`}},
		{"/nim start k:21", []string{"above the most allowed, 20"}},
		{"/nim start misere:maybe", []string{`"maybe" is not true or false`}},
		{"/nim start opponent:@carol", []string{`no user "@carol"`, "1 (@player1)"}},
		{"/nim start heaps:" + strings.Repeat("9", 101), []string{"too long"}},
		{"/nim admin end", []string{"needs option game", "/nim admin end game:<whole number>"}},
		{"/nim admin", []string{"/nim admin needs a subcommand", "/nim admin end"}},
		// Whole numbers past what Discord carries are too large, not "not
		// a whole number".
		{"/nim move heap:B take:9007199254740993", []string{"option take", "9007199254740993 is too large: a whole number goes up to 9007199254740992"}},
		{"/nim move heap:B take:99999999999999999999", []string{"99999999999999999999 is too large: a whole number goes up to 9007199254740992"}},
		{"/nim move heap:B take:-99999999999999999999", []string{"-99999999999999999999 is below the least allowed, 1"}},
		{"/nim start k:99999999999999999999", []string{"99999999999999999999 is above the most allowed, 20"}},
		{"/nim move heap:B take:+", []string{`"+" is not a whole number`}},
		{"/nim move heap:B take:1-2", []string{`"1-2" is not a whole number`}},
		{"/nim move heap:B take:--99999999999999999999", []string{`"--99999999999999999999" is not a whole number`}},
		{"/as", []string{"/as 1 or /as 2"}},
		{"/as 3", []string{`no local player "3"`}},
		{"-1", []string{"I don't understand"}},
		{"0", []string{"not a button number"}},
		{"99999999999999999999", []string{"not a button number"}},
		{"\xff", []string{"not valid UTF-8"}},
		{"/nim start heaps:" + strings.Repeat("1 ", 5000), []string{"bytes long"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			_, err := words{}.parseLine(tt.line, defs, localPlayers, nimbotUser)
			if err == nil {
				t.Fatalf("words{}.parseLine(%q) accepted it", tt.line)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// FuzzParseLine: no typed line makes the parser panic, and what it accepts
// as a command is a tree Discord could have sent (it survives JSON).
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		"/nim start vs:bot heaps:3 4 5 misere:true", "/nim move heap:B take:2", "/nim hint level:3",
		"3", "5 1,2", "/as 2", "help", "/nim admin end game:1", "nim move notation:A2 C1",
		"/nim start k:1e9", "/nim start opponent:<@!1300000000000000012>", "/nim move take:-0",
		"/nim start heaps::::", "/ nim", "/nim start  variant:21",
	} {
		f.Add(s)
	}
	// The fixture has a subcommand group; the real definitions have the
	// real options.
	defSets := [][]*discordgo.ApplicationCommand{testDefinitions(f), commands.Definitions()}
	f.Fuzz(func(t *testing.T, line string) {
		for _, defs := range defSets {
			got, err := words{}.parseLine(line, defs, localPlayers, nimbotUser)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error message")
				}
				continue
			}
			if got.kind == lineCommand {
				if _, err := json.Marshal(got.options); err != nil {
					t.Fatalf("options do not marshal: %v", err)
				}
			}
		}
	})
}
