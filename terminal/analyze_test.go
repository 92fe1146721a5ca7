package terminal

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"nimbot/engine"
)

func runAnalyze(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Analyze(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestAnalyzeText345(t *testing.T) {
	code, out, errOut := runAnalyze("3", "4", "5")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := []string{
		"Nim: heaps A=3 B=4 C=5",
		"Notation: 3 4 5",
		"The player to move wins with perfect play.",
		"Winning moves (1):",
		"  A2  takes 2 from A",
		"Why (nim-sum):",
	}
	if len(lines) < len(want) {
		t.Fatalf("output too short:\n%s", out)
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	// The steps are numbered, then the table: every line of it as wide as
	// the rules drawn under the header and above the total.
	rest := lines[len(want):]
	steps := 0
	for steps < len(rest) && strings.HasPrefix(rest[steps], "  "+string(rune('1'+steps))+". ") {
		steps++
	}
	if steps == 0 {
		t.Fatalf("no numbered steps after the header:\n%s", out)
	}
	table := rest[steps:]
	if len(table) < 6 { // header, rule, three heaps, rule, total
		t.Fatalf("table has %d lines:\n%s", len(table), out)
	}
	width := utf8.RuneCountInString(table[0])
	for _, l := range table {
		if utf8.RuneCountInString(l) != width {
			t.Errorf("table line %q is not %d wide:\n%s", l, width, strings.Join(table, "\n"))
		}
	}
	if !strings.HasPrefix(strings.TrimSpace(table[1]), "---") || !strings.Contains(out, "011") || !strings.Contains(out, "010") {
		t.Errorf("the nim-sum table lacks its rule or binary digits:\n%s", out)
	}
}

// TestAnalyzeDashesSeparate: a dash between heaps separates them, as the
// notation says, however the heaps are split into arguments.
func TestAnalyzeDashesSeparate(t *testing.T) {
	_, want, _ := runAnalyze("3", "4", "5")
	for _, args := range [][]string{{"3-4-5"}, {"3 - 4-5"}, {"3-", "4-5"}} {
		if code, out, errOut := runAnalyze(args...); code != ExitOK || out != want {
			t.Errorf("analyze %q: exit %d, stderr %q, stdout\n%s\nwant\n%s", args, code, errOut, out, want)
		}
	}
}

func TestAnalyzeJSON345(t *testing.T) {
	code, out, errOut := runAnalyze("--json", "3", "4", "5")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Errorf("want one line, got %q", out)
	}
	var got struct {
		Variant      string            `json:"variant"`
		Misere       bool              `json:"misere"`
		Position     []int64           `json:"position"`
		MoverWins    bool              `json:"mover_wins"`
		WinningMoves []json.RawMessage `json:"winning_moves"`
		WinningCount int64             `json:"winning_count"`
		Notation     string            `json:"notation"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("decode %s: %v", out, err)
	}
	if dec.More() {
		t.Errorf("more than one JSON value in %q", out)
	}
	if got.Variant != "nim" || got.Misere || !got.MoverWins || got.WinningCount != 1 || got.Notation != "3 4 5" {
		t.Errorf("got %+v", got)
	}
	if !reflect.DeepEqual(got.Position, []int64{3, 4, 5}) {
		t.Errorf("position = %v", got.Position)
	}
	if len(got.WinningMoves) != 1 {
		t.Fatalf("winning moves = %s", got.WinningMoves)
	}
	var m map[string]any
	if err := json.Unmarshal(got.WinningMoves[0], &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"heap": 0.0, "take": 2.0, "notation": "A2"}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("move = %v, want %v", m, want)
	}
}

// TestAnalyzeJSONShapes runs every variant through --json and checks the
// position's shape, the move objects' keys, and that every listed move
// really wins: it is legal, its notation reads back as it, and it leaves
// the opponent a lost position.
func TestAnalyzeJSONShapes(t *testing.T) {
	tests := []struct {
		args     []string
		variant  string
		misere   bool
		position string   // the "position" value, compact JSON
		keys     []string // the keys of the first winning move, sorted; nil if none
		someKeys []string // keys that some winning move has (a kind among several)
	}{
		{[]string{"3", "4", "5"}, "nim", false, `[3,4,5]`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--misere", "1", "1", "2"}, "nim", true, `[1,1,2]`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--variant", "subtraction", "--k", "3", "5", "9"}, "subtraction", false, `[5,9]`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--variant", "subtraction", "--set", "1,3,4", "7", "8"}, "subtraction", false, `[7,8]`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--variant", "21", "5"}, "21", true, `5`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--variant", "21", "--normal", "--k", "2", "--target", "10"}, "21", false, `0`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--variant", "greedy", "3", "3", "3"}, "greedy", false, `[3,3,3]`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--variant", "fibonacci", "17"}, "fibonacci", false, `{"heap":17,"limit":16}`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--variant", "fibonacci", "--limit", "4", "17"}, "fibonacci", false, `{"heap":17,"limit":4}`, []string{"heap", "notation", "take"}, nil},
		{[]string{"--variant", "wythoff", "4", "5"}, "wythoff", false, `[4,5]`, nil, []string{"heaps", "notation", "take"}},
		{[]string{"--variant", "wythoff", "3", "5"}, "wythoff", false, `[3,5]`, nil, nil},
		{[]string{"--variant", "moore", "1", "2", "3"}, "moore", false, `[1,2,3]`, []string{"notation", "takes"}, nil},
		{[]string{"--variant", "lasker", "4"}, "lasker", false, `[4]`, nil, []string{"heap", "notation", "split"}},
		{[]string{"--variant", "kayles", "5", "8"}, "kayles", false, `[5,8]`, []string{"heap", "leave", "notation", "take"}, nil},
		{[]string{"--variant", "kayles", "--misere", "8"}, "kayles", true, `[8]`, []string{"heap", "leave", "notation", "take"}, nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runAnalyze(append([]string{"--json"}, tt.args...)...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var got struct {
				Variant      string            `json:"variant"`
				Misere       bool              `json:"misere"`
				Position     json.RawMessage   `json:"position"`
				MoverWins    bool              `json:"mover_wins"`
				WinningMoves []json.RawMessage `json:"winning_moves"`
				WinningCount int64             `json:"winning_count"`
				Notation     string            `json:"notation"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("decode %s: %v", out, err)
			}
			if got.Variant != tt.variant || got.Misere != tt.misere || string(got.Position) != tt.position {
				t.Errorf("variant %q misere %v position %s, want %q %v %s", got.Variant, got.Misere, got.Position, tt.variant, tt.misere, tt.position)
			}
			if got.WinningMoves == nil {
				t.Fatalf("winning_moves is null, want a list: %s", out)
			}
			if got.MoverWins != (len(got.WinningMoves) > 0) || int64(len(got.WinningMoves)) != got.WinningCount {
				t.Errorf("mover_wins %v with %d moves, count %d", got.MoverWins, len(got.WinningMoves), got.WinningCount)
			}
			r, p, err := engine.ParseGame(got.Notation)
			if err != nil {
				t.Fatalf("notation %q does not parse: %v", got.Notation, err)
			}
			var some bool
			for i, raw := range got.WinningMoves {
				var fields map[string]json.RawMessage
				if err := json.Unmarshal(raw, &fields); err != nil {
					t.Fatal(err)
				}
				keys := sortedKeys(fields)
				if i == 0 && tt.keys != nil && !reflect.DeepEqual(keys, tt.keys) {
					t.Errorf("move %s has keys %v, want %v", raw, keys, tt.keys)
				}
				if reflect.DeepEqual(keys, tt.someKeys) {
					some = true
				}
				var note string
				json.Unmarshal(fields["notation"], &note)
				delete(fields, "notation")
				bare, _ := json.Marshal(fields)
				var m engine.Move
				if err := json.Unmarshal(bare, &m); err != nil {
					t.Fatalf("move %s is not engine Move JSON: %v", raw, err)
				}
				if f := r.FormatMove(p, m); f != note {
					t.Errorf("move %s: notation %q, engine says %q", raw, note, f)
				}
				if back, err := r.ParseMove(p, note); err != nil || !reflect.DeepEqual(back, m) {
					t.Errorf("notation %q reads back as %+v (%v), want %+v", note, back, err, m)
				}
				next, err := r.Apply(p, m)
				if err != nil {
					t.Fatalf("move %s is illegal: %v", raw, err)
				}
				if a, err := r.Analyze(next); err != nil || a.MoverWins {
					t.Errorf("move %s leaves a position the opponent wins (%v)", raw, err)
				}
			}
			if tt.someKeys != nil && !some {
				t.Errorf("no winning move has keys %v: %s", tt.someKeys, out)
			}
		})
	}
}

func sortedKeys(m map[string]json.RawMessage) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

func TestAnalyzeTextVariants(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"1", "2", "3"}, []string{"Nim: heaps A=1 B=2 C=3", "loses against perfect play"}},
		{[]string{"0", "0"}, []string{"The game is over", "made the last move"}},
		{[]string{"--misere", "0"}, []string{"The game is over", "the player to move"}},
		{[]string{"--variant", "21", "5"}, []string{"The 21 game: count 5, target 21", "+3"}},
		{[]string{"--variant", "fibonacci", "--limit", "4", "17"}, []string{"heap 17, at most 4 may be taken now", "A1", "A4"}},
		{[]string{"--variant", "kayles", "5", "8"}, []string{"Kayles: rows A=5 B=8", "knocks down pin 1 of row A"}},
		{[]string{"3-4-5", "--json"}, []string{`"position":[3,4,5]`}}, // flags after the heaps
		{[]string{"3,4,5"}, []string{"A=3 B=4 C=5"}},
		{[]string{"--help"}, []string{"usage: analyze", "Variants:"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runAnalyze(tt.args...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestAnalyzeBadInput: every refusal exits non-zero with a message that
// says what is wrong, and prints nothing on stdout.
func TestAnalyzeBadInput(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, ExitUsage, "no heaps given"},
		{[]string{"--variant", "chess", "3"}, ExitUsage, `unknown variant "chess"`},
		{[]string{"--colour", "3"}, ExitUsage, "flag provided but not defined: -colour"},
		{[]string{"3", "x", "5"}, ExitUsage, "cannot read the heaps"},
		{[]string{"3", "-4"}, ExitUsage, "not defined: -4"},
		// A minus sign the flag package lets through, once read as a
		// separator: the heaps 3 and 4.
		{[]string{"3,-4"}, ExitUsage, `cannot read the heaps "3,-4": heaps cannot be negative`},
		{[]string{"3 -4"}, ExitUsage, `cannot read the heaps "3 -4": heaps cannot be negative`},
		{[]string{"5", "6,-3"}, ExitUsage, "heaps cannot be negative"},
		// A heap's digits grouped once read as two heaps: 1 and 0.
		{[]string{"1,000"}, ExitUsage, `cannot read the heaps "1,000": "1,000" reads as the number 1000 with its digits grouped`},
		{[]string{"2", "500"}, ExitUsage, `write 2500 for one heap, or 2, 500 for separate heaps`},
		// Heaps past MaxHeapSize are positions beyond the published
		// limits, refused as the other over-limit positions are (exit 1).
		{[]string{"1000000000001"}, ExitRefused, "too large to solve perfectly: heap A: 1000000000001 is too large; heaps hold at most 1000000000000"},
		{[]string{"3", "1000000000000000000000"}, ExitRefused, "heap B: 1000000000000000000000 is too large"},
		{[]string{"--variant", "greedy", "3", "1000000000001"}, ExitRefused, "heaps hold at most 1000000000000"},
		{[]string{"--k", "3", "3", "4"}, ExitUsage, "--k does not apply to nim"},
		{[]string{"--variant", "subtraction", "--k", "0", "3"}, ExitUsage, "--k must be at least 1"},
		{[]string{"--variant", "subtraction", "--k", "x", "3"}, ExitUsage, "invalid value"},
		{[]string{"--variant", "subtraction", "--k", "2", "--set", "1,2", "3"}, ExitUsage, "either --k or --set"},
		{[]string{"--variant", "subtraction", "--set", "1,a", "3"}, ExitUsage, `"a" is not a positive whole number`},
		{[]string{"--variant", "subtraction", "--set", "", "3"}, ExitUsage, "--set needs amounts"},
		{[]string{"--variant", "subtraction", "--set", "0,2", "3"}, ExitUsage, `"0" is not a positive whole number`},
		{[]string{"--set", "1,2", "3"}, ExitUsage, "--set does not apply to nim"},
		{[]string{"--limit", "3", "3"}, ExitUsage, "--limit does not apply to nim (it applies to fibonacci)"},
		{[]string{"--target", "3", "3"}, ExitUsage, "--target does not apply to nim (it applies to 21)"},
		{[]string{"--variant", "21", "5", "6"}, ExitUsage, "one number, the count said so far"},
		{[]string{"--variant", "21", "30"}, ExitUsage, ""},
		{[]string{"--variant", "21", "--target", "0"}, ExitUsage, "--target must be at least 1"},
		{[]string{"--variant", "fibonacci", "3", "4"}, ExitUsage, "one heap"},
		{[]string{"--variant", "fibonacci", "--limit", "0", "10"}, ExitUsage, "--limit must be at least 1"},
		{[]string{"--variant", "wythoff", "3"}, ExitUsage, "two heaps"},
		{[]string{"--variant", "wythoff", "3", "4", "5"}, ExitUsage, "two heaps"},
		{[]string{"--misere", "--normal", "3"}, ExitUsage, "either --misere or --normal"},
		{[]string{"--variant", "kayles", "--misere", "41"}, ExitRefused, "too large"},
	}
	manyHeaps := []string{"--variant", "moore"}
	for range 200 {
		manyHeaps = append(manyHeaps, "1")
	}
	tests = append(tests, struct {
		args []string
		code int
		want string
	}{manyHeaps, ExitRefused, "too large to solve perfectly"})
	var tooManyHeaps []string // more than any variant takes
	for i := range 10001 {
		tooManyHeaps = append(tooManyHeaps, strconv.Itoa(i+1))
	}
	tests = append(tests, struct {
		args []string
		code int
		want string
	}{tooManyHeaps, ExitRefused, "too large to solve perfectly: at most 10000 heaps, not 10001"})
	for _, tt := range tests {
		name := strings.Join(tt.args, " ")
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runAnalyze(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.HasPrefix(errOut, "analyze: ") || !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr %q lacks %q", errOut, tt.want)
			}
		})
	}
}

// TestAnalyzeEchoShort: a refusal quotes what it refuses shortened, however
// long the argument. The heaps were quoted whole: analyze $(seq 1 9000) x
// wrote a 40 KB line.
func TestAnalyzeEchoShort(t *testing.T) {
	long := strings.Repeat("7", 50000)
	var heaps []string
	for i := range 9000 {
		heaps = append(heaps, strconv.Itoa(i+1))
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"many heaps, one bad", append(heaps, "x"), ExitUsage, `cannot read the heaps "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 1…": heap MHE: "x" is not a heap size`},
		{"one long bad heap", []string{"3", long + "x"}, ExitUsage, `cannot read the heaps "3 77777777777777777777777777777777777777…": heap B: "777777777777777777777777777777777777777…" is not a heap size`},
		{"one long heap", []string{"3", long}, ExitRefused, "heap B: 7777777777777777777777777777777777777777… is too large"},
		{"a long variant", []string{"--variant", long, "3"}, ExitUsage, `unknown variant "7777777777777777777777777777777777777777…"`},
		{"a long set amount", []string{"--variant", "subtraction", "--set", "1," + long + "x", "3"}, ExitUsage, `--set: "7777777777777777777777777777777777777777…" is not a positive whole number`},
		{"a long flag value", []string{"--variant", "subtraction", "--k", long, "3"}, ExitUsage, `invalid value "777777777777777777777777777777777777777…" for flag -k`},
		{"a long flag name", []string{"--" + long, "3"}, ExitUsage, "flag provided but not defined: -777777777777777777777777777777777777777…"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runAnalyze(c.args...)
			if code != c.code || out != "" {
				t.Errorf("exit %d, want %d; stdout %q", code, c.code, out)
			}
			if len(errOut) > 400 || !strings.Contains(errOut, c.want) {
				t.Errorf("stderr (%d bytes) lacks %q or is too long:\n%.600s", len(errOut), c.want, errOut)
			}
		})
	}
}

// FuzzAnalyze: no command line makes analyze panic; it exits 0, 1 or 2,
// and what it prints on success is one JSON object. (--json keeps the fuzzer
// off the explanation, which the engine computes separately.)
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"3 4 5", "--misere 1 1", "--variant 21 5", "--variant fibonacci --limit 4 17",
		"--variant subtraction --set 1,3,4 7 9", "--variant wythoff 3 5", "--variant moore --k 3 1 2 3",
		"--variant lasker 4 7", "--variant kayles --misere 5 8", "--k -1 3", "--set ,,, 3", "3-4-5 --normal",
		"--variant greedy 1000000000000 1000000000000", "--limit=0 --variant=fibonacci 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := append([]string{"--json"}, strings.Fields(s)...)
		var out, errOut bytes.Buffer
		code := Analyze(args, &out, &errOut)
		switch code {
		case ExitOK:
			if strings.Contains(s, "-h") {
				return // --help prints the usage
			}
			var v map[string]any
			if err := json.Unmarshal(out.Bytes(), &v); err != nil {
				t.Fatalf("%q: output is not one JSON object: %v\n%s", s, err, out.String())
			}
		case ExitUsage, ExitRefused:
			if errOut.Len() == 0 || out.Len() != 0 {
				t.Fatalf("%q: exit %d with stdout %q stderr %q", s, code, out.String(), errOut.String())
			}
		default:
			t.Fatalf("%q: exit %d", s, code)
		}
	})
}
