package terminal

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// lineKind tells apart what a typed line asks for.
type lineKind int

const (
	lineEmpty   lineKind = iota // nothing typed
	lineHelp                    // help, ?, /help
	lineQuit                    // quit, exit, /quit
	lineAs                      // /as 2: type as the other local player
	linePress                   // 3 (or "3 2"): press component 3 of the board, picking option 2
	lineCommand                 // /nim start vs:bot heaps:3 4 5
)

// person is a local user the terminal can type as, or nimbot itself.
type person struct {
	ID   string
	Name string // username, as mentions are printed: @player1
	Bot  bool
}

// typed is one understood line.
type typed struct {
	kind lineKind
	// player is the 0-based index of the local player for lineAs.
	player int
	// press is the 1-based number of the component to press; picks are the
	// select-menu options typed after it (numbers or values).
	press int
	picks []string
	// name and options are the slash command and its option tree exactly as
	// Discord sends it (subcommand groups and subcommands nested).
	name    string
	options []*discordgo.ApplicationCommandInteractionDataOption
	// users are the people named by user options, for the resolved data.
	users []person
}

// aliases are terminal shorthands for option names: "vs:bot" reads better
// than "opponent:bot" on a keyboard.
var aliases = map[string]string{"vs": "opponent", "against": "opponent"}

// maxLine bounds a typed line: Discord's longest option value and then some.
const maxLine = 8000

// maxStringOption is Discord's cap on a string option's length.
const maxStringOption = 6000

// parseLine reads one typed line against the registered commands. people
// are the local players (index 0 and 1); bot is nimbot's own user. The
// checks are the ones Discord's client makes before it sends anything
// (required options, choices, bounds), so the service sees only what Discord
// would let through. Errors say what is wrong and what to type instead.
func parseLine(line string, defs []*discordgo.ApplicationCommand, people []person, bot person) (typed, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return typed{kind: lineEmpty}, nil
	}
	if len(line) > maxLine {
		return typed{}, fmt.Errorf("that line is %d bytes long; a command fits in %d", len(line), maxLine)
	}
	if !utf8.ValidString(line) {
		return typed{}, fmt.Errorf("that line is not valid UTF-8 text")
	}
	fields := strings.Fields(line)
	head := strings.ToLower(fields[0])
	switch head {
	case "help", "/help", "?":
		return typed{kind: lineHelp}, nil
	case "quit", "exit", "/quit", "/exit", "q":
		return typed{kind: lineQuit}, nil
	case "/as", "as":
		return parseAs(fields[1:], people)
	}
	if c := line[0]; c >= '0' && c <= '9' {
		return parsePress(fields)
	}
	if !strings.HasPrefix(line, "/") {
		if findCommand(defs, head) == nil {
			return typed{}, fmt.Errorf("I don't understand %q. Type a slash command such as %s, a number to press one of the board's buttons, help, or quit", clip(line), exampleCommand(defs))
		}
		line = "/" + line // "nim hint" is forgiven its missing slash
	}
	return parseSlash(line[1:], defs, people, bot)
}

func parseAs(args []string, people []person) (typed, error) {
	if len(args) != 1 {
		return typed{}, fmt.Errorf("/as takes one player: /as 1 or /as 2")
	}
	a := strings.ToLower(strings.TrimPrefix(args[0], "@"))
	for i, p := range people {
		if a == strconv.Itoa(i+1) || a == strings.ToLower(p.Name) || a == p.ID {
			return typed{kind: lineAs, player: i}, nil
		}
	}
	return typed{}, fmt.Errorf("no local player %q: type /as 1 or /as 2", clip(args[0]))
}

func parsePress(fields []string) (typed, error) {
	n, err := strconv.Atoi(fields[0])
	if err != nil || n < 1 {
		return typed{}, fmt.Errorf("%q is not a button number: type the number shown in [brackets] next to a button, e.g. 1", clip(fields[0]))
	}
	var picks []string
	for _, f := range fields[1:] {
		for _, p := range strings.Split(f, ",") {
			if p != "" {
				picks = append(picks, p)
			}
		}
	}
	return typed{kind: linePress, press: n, picks: picks}, nil
}

// parseSlash reads "nim start vs:bot heaps:3 4 5": the command, its
// subcommand group and subcommand, then name:value options. A value runs to
// the next name: token, so "heaps:3 4 5" is one value.
func parseSlash(s string, defs []*discordgo.ApplicationCommand, people []person, bot person) (typed, error) {
	toks := strings.Fields(s)
	if len(toks) == 0 || toks[0] == "" {
		return typed{}, fmt.Errorf("a slash needs a command after it, e.g. %s", exampleCommand(defs))
	}
	name := strings.ToLower(toks[0])
	def := findCommand(defs, name)
	if def == nil {
		return typed{}, fmt.Errorf("there is no /%s command. Commands: %s (type help for more)", clip(name), commandList(defs))
	}
	toks = toks[1:]
	path := "/" + def.Name
	opts := def.Options
	var chain []*discordgo.ApplicationCommandInteractionDataOption // the subcommand group and subcommand
	for hasSubcommands(opts) {
		if len(toks) == 0 || strings.Contains(toks[0], ":") {
			return typed{}, fmt.Errorf("%s needs a subcommand: %s", path, subcommandList(path, opts))
		}
		sub := findOption(opts, strings.ToLower(toks[0]))
		if sub == nil || (sub.Type != discordgo.ApplicationCommandOptionSubCommand && sub.Type != discordgo.ApplicationCommandOptionSubCommandGroup) {
			return typed{}, fmt.Errorf("%s has no subcommand %q: use %s", path, clip(toks[0]), subcommandList(path, opts))
		}
		toks = toks[1:]
		path += " " + sub.Name
		chain = append(chain, &discordgo.ApplicationCommandInteractionDataOption{Name: sub.Name, Type: sub.Type})
		opts = sub.Options
	}

	// Split the rest into name:value pairs.
	type pair struct {
		name  string
		words []string
	}
	var pairs []pair
	for _, tok := range toks {
		if n, v, ok := optionToken(tok); ok {
			p := pair{name: strings.ToLower(n)}
			if v != "" {
				p.words = []string{v}
			}
			pairs = append(pairs, p)
			continue
		}
		if len(pairs) == 0 {
			return typed{}, fmt.Errorf("%q is not an option: write options as name:value, e.g. %s", clip(tok), usage(path, opts))
		}
		last := &pairs[len(pairs)-1]
		last.words = append(last.words, tok)
	}

	t := typed{kind: lineCommand, name: def.Name}
	var leaf []*discordgo.ApplicationCommandInteractionDataOption
	seen := map[string]bool{}
	for _, p := range pairs {
		o := findOption(opts, p.name)
		if o == nil {
			o = findOption(opts, aliases[p.name])
		}
		if o == nil || o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			return typed{}, fmt.Errorf("%s has no option %q. Usage: %s", path, clip(p.name), usage(path, opts))
		}
		if seen[o.Name] {
			return typed{}, fmt.Errorf("option %s: given twice", o.Name)
		}
		seen[o.Name] = true
		v, who, err := optionValue(o, strings.Join(p.words, " "), people, bot)
		if err != nil {
			return typed{}, fmt.Errorf("option %s: %v. Usage: %s", o.Name, err, usage(path, opts))
		}
		if who != nil {
			t.users = append(t.users, *who)
		}
		leaf = append(leaf, &discordgo.ApplicationCommandInteractionDataOption{Name: o.Name, Type: o.Type, Value: v})
	}
	for _, o := range opts {
		if o.Required && !seen[o.Name] {
			return typed{}, fmt.Errorf("%s needs option %s. Usage: %s", path, o.Name, usage(path, opts))
		}
	}
	if len(chain) == 0 {
		t.options = leaf
		return t, nil
	}
	chain[len(chain)-1].Options = leaf
	for i := len(chain) - 1; i > 0; i-- {
		chain[i-1].Options = []*discordgo.ApplicationCommandInteractionDataOption{chain[i]}
	}
	t.options = []*discordgo.ApplicationCommandInteractionDataOption{chain[0]}
	return t, nil
}

// optionToken splits "name:value"; names are what Discord allows (letters
// of any script, digits, - and _: a translated name such as "山" too), so
// "3:4" or "http://x" in a value is not taken for an option.
func optionToken(tok string) (name, value string, ok bool) {
	i := strings.IndexByte(tok, ':')
	if i <= 0 {
		return "", "", false
	}
	name = tok[:i]
	for j, r := range name {
		switch {
		case unicode.IsLetter(r), r == '_', r == '-':
		case j > 0 && (unicode.IsDigit(r) || unicode.IsMark(r)):
		default:
			return "", "", false
		}
	}
	return name, tok[i+1:], true
}

// optionValue converts a typed value to what Discord would send for o,
// checking what Discord's client checks.
func optionValue(o *discordgo.ApplicationCommandOption, s string, people []person, bot person) (any, *person, error) {
	if s == "" {
		return nil, nil, fmt.Errorf("no value after %s:", o.Name)
	}
	if len(o.Choices) > 0 {
		for _, c := range o.Choices {
			if strings.EqualFold(s, c.Name) || strings.EqualFold(s, fmt.Sprint(c.Value)) {
				return choiceValue(c.Value), nil, nil
			}
		}
		for _, c := range o.Choices {
			for _, n := range c.NameLocalizations {
				if strings.EqualFold(s, n) {
					return choiceValue(c.Value), nil, nil
				}
			}
		}
		return nil, nil, fmt.Errorf("%q is not one of %s", clip(s), choiceList(o))
	}
	switch o.Type {
	case discordgo.ApplicationCommandOptionString:
		n := utf8.RuneCountInString(s)
		if n > maxStringOption || (o.MaxLength > 0 && n > o.MaxLength) {
			return nil, nil, fmt.Errorf("too long (%d characters, at most %d)", n, max(o.MaxLength, 0))
		}
		if o.MinLength != nil && n < *o.MinLength {
			return nil, nil, fmt.Errorf("too short (%d characters, at least %d)", n, *o.MinLength)
		}
		return s, nil, nil
	case discordgo.ApplicationCommandOptionInteger:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil && !isWhole(s) {
			return nil, nil, fmt.Errorf("%q is not a whole number", clip(s))
		}
		// Discord carries integers as JSON numbers, exact only to 2^53. A
		// whole number past that is one, only too large: saying it is no
		// number would send the player looking for a typo.
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return nil, nil, outOfRange(o, s)
		}
		if err := checkBounds(o, float64(n)); err != nil {
			return nil, nil, err
		}
		return n, nil, nil
	case discordgo.ApplicationCommandOptionNumber:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, nil, fmt.Errorf("%q is not a number", clip(s))
		}
		if err := checkBounds(o, f); err != nil {
			return nil, nil, err
		}
		return f, nil, nil
	case discordgo.ApplicationCommandOptionBoolean:
		switch strings.ToLower(s) {
		case "true", "yes", "y", "on", "1":
			return true, nil, nil
		case "false", "no", "n", "off", "0":
			return false, nil, nil
		}
		return nil, nil, fmt.Errorf("%q is not true or false", clip(s))
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		who, ok := findPerson(s, people, bot)
		if !ok {
			return nil, nil, fmt.Errorf("no user %q here: name %s, or bot", clip(s), peopleList(people))
		}
		return who.ID, &who, nil
	}
	return nil, nil, fmt.Errorf("%s options cannot be typed in the terminal", o.Type)
}

// isWhole reports whether s is digits, with one sign or none: a whole
// number of any size.
func isWhole(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// outOfRange refuses whole number s, past what an integer option carries,
// with the bound that applies: the option's own, else Discord's 2^53.
func outOfRange(o *discordgo.ApplicationCommandOption, s string) error {
	if strings.HasPrefix(s, "-") {
		if o.MinValue != nil {
			return fmt.Errorf("%s is below the least allowed, %v", clip(s), *o.MinValue)
		}
		return fmt.Errorf("%s is too small: a whole number goes down to %d", clip(s), -(1 << 53))
	}
	if o.MaxValue != 0 {
		return fmt.Errorf("%s is above the most allowed, %v", clip(s), o.MaxValue)
	}
	return fmt.Errorf("%s is too large: a whole number goes up to %d", clip(s), 1<<53)
}

func checkBounds(o *discordgo.ApplicationCommandOption, v float64) error {
	if o.MinValue != nil && v < *o.MinValue {
		return fmt.Errorf("%v is below the least allowed, %v", v, *o.MinValue)
	}
	// discordgo cannot tell "no maximum" from a maximum of 0 (omitempty), and
	// neither can Discord, so 0 means none here too.
	if o.MaxValue != 0 && v > o.MaxValue {
		return fmt.Errorf("%v is above the most allowed, %v", v, o.MaxValue)
	}
	return nil
}

// choiceValue is a choice's value as it arrives over JSON.
func choiceValue(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int64, float64, string, bool:
		return x
	}
	return fmt.Sprint(v)
}

// findPerson resolves a typed user: bot, 1 or 2, @player2, <@id>, or an id.
func findPerson(s string, people []person, bot person) (person, bool) {
	a := strings.ToLower(strings.TrimSpace(s))
	a = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(a, "<@"), "!"), ">")
	a = strings.TrimPrefix(a, "@")
	if a == "bot" || a == strings.ToLower(bot.Name) || a == bot.ID {
		return bot, true
	}
	for i, p := range people {
		if a == strconv.Itoa(i+1) || a == strings.ToLower(p.Name) || a == p.ID {
			return p, true
		}
	}
	return person{}, false
}

func findCommand(defs []*discordgo.ApplicationCommand, name string) *discordgo.ApplicationCommand {
	var localized *discordgo.ApplicationCommand
	for _, d := range defs {
		if d == nil || (d.Type != 0 && d.Type != discordgo.ChatApplicationCommand) {
			continue
		}
		if d.Name == name {
			return d
		}
		if localized == nil && d.NameLocalizations != nil && namedIn(*d.NameLocalizations, name) {
			localized = d
		}
	}
	return localized
}

// findOption finds the option (or subcommand) called name: by its own name,
// else by a name it has in one of Discord's languages. nimbot's messages name
// options as Discord shows them to the reader, and the terminal plays in the
// reader's language, so "/nim zug nehmen:1" works as "/nim move take:1".
// The English names come first: a translation that happened to spell another
// option's English name cannot take its place.
func findOption(opts []*discordgo.ApplicationCommandOption, name string) *discordgo.ApplicationCommandOption {
	var localized *discordgo.ApplicationCommandOption
	for _, o := range opts {
		if o == nil {
			continue
		}
		if o.Name == name {
			return o
		}
		if localized == nil && namedIn(o.NameLocalizations, name) {
			localized = o
		}
	}
	return localized
}

// namedIn reports whether name is one of the localized names in names
// (Discord keeps them lowercase).
func namedIn(names map[discordgo.Locale]string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func hasSubcommands(opts []*discordgo.ApplicationCommandOption) bool {
	for _, o := range opts {
		if o != nil && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			return true
		}
	}
	return false
}

// usage writes a subcommand's options: required as name:<kind>, optional
// in brackets.
func usage(path string, opts []*discordgo.ApplicationCommandOption) string {
	parts := []string{path}
	for _, o := range opts {
		if o == nil {
			continue
		}
		p := o.Name + ":" + kindOf(o)
		if !o.Required {
			p = "[" + p + "]"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func kindOf(o *discordgo.ApplicationCommandOption) string {
	if len(o.Choices) > 0 {
		return "<" + choiceList(o) + ">"
	}
	switch o.Type {
	case discordgo.ApplicationCommandOptionString:
		return "<text>"
	case discordgo.ApplicationCommandOptionInteger:
		return "<whole number>"
	case discordgo.ApplicationCommandOptionNumber:
		return "<number>"
	case discordgo.ApplicationCommandOptionBoolean:
		return "<true|false>"
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		return "<bot|1|2>"
	}
	return "<" + strings.ToLower(o.Type.String()) + ">"
}

// choiceList shows the choices' values, which are short and typeable
// (names like "Nim — take any number from one heap" are for Discord's menu).
func choiceList(o *discordgo.ApplicationCommandOption) string {
	var names []string
	for _, c := range o.Choices {
		if c != nil {
			names = append(names, strings.ToLower(fmt.Sprint(c.Value)))
		}
	}
	return strings.Join(names, "|")
}

func subcommandList(path string, opts []*discordgo.ApplicationCommandOption) string {
	var names []string
	for _, o := range opts {
		if o != nil && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			names = append(names, path+" "+o.Name)
		}
	}
	return strings.Join(names, ", ")
}

func commandList(defs []*discordgo.ApplicationCommand) string {
	var names []string
	for _, d := range defs {
		if d != nil && (d.Type == 0 || d.Type == discordgo.ChatApplicationCommand) {
			names = append(names, "/"+d.Name)
		}
	}
	if len(names) == 0 {
		return "(none registered)"
	}
	return strings.Join(names, ", ")
}

func exampleCommand(defs []*discordgo.ApplicationCommand) string {
	if findCommand(defs, "nim") != nil {
		return "/nim move heap:B take:2"
	}
	return commandList(defs)
}

func peopleList(people []person) string {
	var names []string
	for i, p := range people {
		names = append(names, fmt.Sprintf("%d (@%s)", i+1, p.Name))
	}
	return strings.Join(names, ", ")
}

// clipRunes is how much of a piece of input an error message echoes.
const clipRunes = 40

// clip keeps echoed input short in error messages.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= clipRunes {
		return s
	}
	return string([]rune(s)[:clipRunes]) + "…"
}
