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

// maxChoiceWord is the longest choice name choiceList shows instead of
// the value.
const maxChoiceWord = 20

// maxStringOption is Discord's cap on a string option's length.
const maxStringOption = 6000

// parseLine reads one typed line against the registered commands. people
// are the local players (index 0 and 1); bot is nimbot's own user. The
// checks are the ones Discord's client makes before it sends anything
// (required options, choices, bounds), so the service sees only what Discord
// would let through. Errors say what is wrong and what to type instead, in
// the player's language, naming commands and options as their Discord does.
func (w words) parseLine(line string, defs []*discordgo.ApplicationCommand, people []person, bot person) (typed, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return typed{kind: lineEmpty}, nil
	}
	if len(line) > maxLine {
		return typed{}, w.err("err.too_long", "Len", len(line), "Max", maxLine)
	}
	if !utf8.ValidString(line) {
		return typed{}, w.err("err.utf8")
	}
	fields := strings.Fields(line)
	head := strings.ToLower(fields[0])
	switch head {
	case "help", "/help", "?":
		return typed{kind: lineHelp}, nil
	case "quit", "exit", "/quit", "/exit", "q":
		return typed{kind: lineQuit}, nil
	case "/as", "as":
		return w.parseAs(fields[1:], people)
	}
	if c := line[0]; c >= '0' && c <= '9' {
		return w.parsePress(fields)
	}
	if !strings.HasPrefix(line, "/") {
		if findCommand(defs, head) == nil {
			return typed{}, w.err("err.unknown", "Text", strconv.Quote(clip(line)), "Example", w.exampleCommand(defs))
		}
		line = "/" + line // "nim hint" is forgiven its missing slash
	}
	return w.parseSlash(line[1:], defs, people, bot)
}

func (w words) parseAs(args []string, people []person) (typed, error) {
	if len(args) != 1 {
		return typed{}, w.err("err.as_args")
	}
	a := strings.ToLower(strings.TrimPrefix(args[0], "@"))
	for i, p := range people {
		if a == strconv.Itoa(i+1) || a == strings.ToLower(p.Name) || a == p.ID {
			return typed{kind: lineAs, player: i}, nil
		}
	}
	return typed{}, w.err("err.as_who", "Text", strconv.Quote(clip(args[0])))
}

func (w words) parsePress(fields []string) (typed, error) {
	n, err := strconv.Atoi(fields[0])
	if err != nil || n < 1 {
		return typed{}, w.err("err.not_button", "Text", strconv.Quote(clip(fields[0])))
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
func (w words) parseSlash(s string, defs []*discordgo.ApplicationCommand, people []person, bot person) (typed, error) {
	toks := strings.Fields(s)
	if len(toks) == 0 || toks[0] == "" {
		return typed{}, w.err("err.slash", "Example", w.exampleCommand(defs))
	}
	name := strings.ToLower(toks[0])
	def := findCommand(defs, name)
	if def == nil {
		return typed{}, w.err("err.no_command", "Name", clip(name), "Commands", w.commandList(defs))
	}
	toks = toks[1:]
	path := "/" + w.command(def)
	opts := def.Options
	var chain []*discordgo.ApplicationCommandInteractionDataOption // the subcommand group and subcommand
	for hasSubcommands(opts) {
		if len(toks) == 0 || strings.Contains(toks[0], ":") {
			return typed{}, w.err("err.need_sub", "Path", path, "List", w.subcommandList(path, opts))
		}
		sub := findOption(opts, strings.ToLower(toks[0]))
		if sub == nil || (sub.Type != discordgo.ApplicationCommandOptionSubCommand && sub.Type != discordgo.ApplicationCommandOptionSubCommandGroup) {
			return typed{}, w.err("err.no_sub", "Path", path, "Text", strconv.Quote(clip(toks[0])), "List", w.subcommandList(path, opts))
		}
		toks = toks[1:]
		path += " " + w.option(sub)
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
			return typed{}, w.err("err.not_option", "Text", strconv.Quote(clip(tok)), "Usage", w.usage(path, opts))
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
			return typed{}, w.err("err.no_option", "Path", path, "Text", strconv.Quote(clip(p.name)), "Usage", w.usage(path, opts))
		}
		if seen[o.Name] {
			return typed{}, w.err("err.given_twice", "Option", w.option(o))
		}
		seen[o.Name] = true
		v, who, err := w.optionValue(o, strings.Join(p.words, " "), people, bot)
		if err != nil {
			return typed{}, w.err("err.option", "Option", w.option(o), "Err", err.Error(), "Usage", w.usage(path, opts))
		}
		if who != nil {
			t.users = append(t.users, *who)
		}
		leaf = append(leaf, &discordgo.ApplicationCommandInteractionDataOption{Name: o.Name, Type: o.Type, Value: v})
	}
	for _, o := range opts {
		if o.Required && !seen[o.Name] {
			return typed{}, w.err("err.need_option", "Path", path, "Option", w.option(o), "Usage", w.usage(path, opts))
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
func (w words) optionValue(o *discordgo.ApplicationCommandOption, s string, people []person, bot person) (any, *person, error) {
	if s == "" {
		return nil, nil, w.err("err.no_value", "Option", w.option(o))
	}
	if len(o.Choices) > 0 {
		for _, c := range o.Choices {
			if strings.EqualFold(s, c.Name) || strings.EqualFold(s, fmt.Sprint(c.Value)) {
				return choiceValue(c.Value), nil, nil
			}
		}
		for _, c := range o.Choices {
			for _, n := range c.NameLocalizations {
				if strings.EqualFold(s, n) || strings.EqualFold(s, choiceTitle(n)) {
					return choiceValue(c.Value), nil, nil
				}
			}
		}
		return nil, nil, w.err("err.not_choice", "Text", strconv.Quote(clip(s)), "Choices", w.choiceList(o))
	}
	switch o.Type {
	case discordgo.ApplicationCommandOptionString:
		n := utf8.RuneCountInString(s)
		if n > maxStringOption || (o.MaxLength > 0 && n > o.MaxLength) {
			return nil, nil, w.err("err.text_long", "Len", n, "Max", max(o.MaxLength, 0))
		}
		if o.MinLength != nil && n < *o.MinLength {
			return nil, nil, w.err("err.text_short", "Len", n, "Min", *o.MinLength)
		}
		return s, nil, nil
	case discordgo.ApplicationCommandOptionInteger:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil && !isWhole(s) {
			return nil, nil, w.err("err.not_whole", "Text", strconv.Quote(clip(s)))
		}
		// Discord carries integers as JSON numbers, exact only to 2^53. A
		// whole number past that is one, only too large: saying it is no
		// number would send the player looking for a typo.
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return nil, nil, w.outOfRange(o, s)
		}
		if err := w.checkBounds(o, float64(n)); err != nil {
			return nil, nil, err
		}
		return n, nil, nil
	case discordgo.ApplicationCommandOptionNumber:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, nil, w.err("err.not_number", "Text", strconv.Quote(clip(s)))
		}
		if err := w.checkBounds(o, f); err != nil {
			return nil, nil, err
		}
		return f, nil, nil
	case discordgo.ApplicationCommandOptionBoolean:
		switch b := strings.ToLower(s); {
		case b == "true" || b == "yes" || b == "y" || b == "on" || b == "1" || b == strings.ToLower(w.t("bool.true")):
			return true, nil, nil
		case b == "false" || b == "no" || b == "n" || b == "off" || b == "0" || b == strings.ToLower(w.t("bool.false")):
			return false, nil, nil
		}
		return nil, nil, w.err("err.not_bool", "Text", strconv.Quote(clip(s)), "True", w.t("bool.true"), "False", w.t("bool.false"))
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		who, ok := findPerson(s, people, bot)
		if !ok {
			return nil, nil, w.err("err.no_user", "Text", strconv.Quote(clip(s)), "People", peopleList(people))
		}
		return who.ID, &who, nil
	}
	return nil, nil, w.err("err.untypable", "Kind", o.Type.String())
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
func (w words) outOfRange(o *discordgo.ApplicationCommandOption, s string) error {
	if strings.HasPrefix(s, "-") {
		if o.MinValue != nil {
			return w.err("err.below", "Value", clip(s), "Min", fmt.Sprint(*o.MinValue))
		}
		return w.err("err.too_small", "Value", clip(s), "Min", strconv.FormatInt(-(1<<53), 10))
	}
	if o.MaxValue != 0 {
		return w.err("err.above", "Value", clip(s), "Max", fmt.Sprint(o.MaxValue))
	}
	return w.err("err.too_large", "Value", clip(s), "Max", strconv.FormatInt(1<<53, 10))
}

func (w words) checkBounds(o *discordgo.ApplicationCommandOption, v float64) error {
	if o.MinValue != nil && v < *o.MinValue {
		return w.err("err.below", "Value", fmt.Sprint(v), "Min", fmt.Sprint(*o.MinValue))
	}
	// discordgo cannot tell "no maximum" from a maximum of 0 (omitempty), and
	// neither can Discord, so 0 means none here too.
	if o.MaxValue != 0 && v > o.MaxValue {
		return w.err("err.above", "Value", fmt.Sprint(v), "Max", fmt.Sprint(o.MaxValue))
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
func (w words) usage(path string, opts []*discordgo.ApplicationCommandOption) string {
	parts := []string{path}
	for _, o := range opts {
		if o == nil {
			continue
		}
		p := w.option(o) + ":" + w.kindOf(o)
		if !o.Required {
			p = "[" + p + "]"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func (w words) kindOf(o *discordgo.ApplicationCommandOption) string {
	if len(o.Choices) > 0 {
		return "<" + w.choiceList(o) + ">"
	}
	switch o.Type {
	case discordgo.ApplicationCommandOptionString:
		return "<" + w.t("kind.text") + ">"
	case discordgo.ApplicationCommandOptionInteger:
		return "<" + w.t("kind.integer") + ">"
	case discordgo.ApplicationCommandOptionNumber:
		return "<" + w.t("kind.number") + ">"
	case discordgo.ApplicationCommandOptionBoolean:
		return "<" + w.t("bool.true") + "|" + w.t("bool.false") + ">"
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		return "<bot|1|2>"
	case discordgo.ApplicationCommandOptionChannel:
		return "<" + w.t("kind.channel") + ">"
	}
	return "<" + strings.ToLower(o.Type.String()) + ">"
}

// choiceList shows the choices as they are best typed: a short name in
// the player's language ("leicht", "Gieriges Nim" of "Gieriges Nim — nur
// von einem größten Haufen nehmen"), else the value ("subtraction", "2"):
// in English, when the name is long, or when a number stands for it.
// optionValue reads each.
func (w words) choiceList(o *discordgo.ApplicationCommandOption) string {
	var names []string
	for _, c := range o.Choices {
		if c == nil {
			continue
		}
		name := strings.ToLower(fmt.Sprint(c.Value))
		if _, isString := c.Value.(string); isString {
			if n, ok := c.NameLocalizations[w.locale]; ok && utf8.RuneCountInString(choiceTitle(n)) <= maxChoiceWord {
				name = choiceTitle(n)
			}
		}
		names = append(names, name)
	}
	return strings.Join(names, "|")
}

// choiceTitle is a choice's name up to its summary: "Gieriges Nim" of
// "Gieriges Nim — nur von einem größten Haufen nehmen".
func choiceTitle(name string) string {
	title, _, _ := strings.Cut(name, " — ")
	return title
}

func (w words) subcommandList(path string, opts []*discordgo.ApplicationCommandOption) string {
	var names []string
	for _, o := range opts {
		if o != nil && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			names = append(names, path+" "+w.option(o))
		}
	}
	return strings.Join(names, ", ")
}

func (w words) commandList(defs []*discordgo.ApplicationCommand) string {
	var names []string
	for _, d := range defs {
		if d != nil && (d.Type == 0 || d.Type == discordgo.ChatApplicationCommand) {
			names = append(names, "/"+w.command(d))
		}
	}
	if len(names) == 0 {
		return w.t("none")
	}
	return strings.Join(names, ", ")
}

func (w words) exampleCommand(defs []*discordgo.ApplicationCommand) string {
	if ex := w.example(defs, "move", "heap", "B", "take", "2"); ex != "" {
		return ex
	}
	return w.commandList(defs)
}

// example writes "/nim <sub> name:value …" with the names the player's
// Discord shows; "" when /nim has no such subcommand.
func (w words) example(defs []*discordgo.ApplicationCommand, sub string, nameValues ...string) string {
	nim := findCommand(defs, "nim")
	if nim == nil {
		return ""
	}
	s := findOption(nim.Options, sub)
	if s == nil {
		return ""
	}
	parts := []string{"/" + w.command(nim), w.option(s)}
	for i := 0; i+1 < len(nameValues); i += 2 {
		name := nameValues[i]
		if o := findOption(s.Options, name); o != nil {
			name = w.option(o)
		}
		parts = append(parts, name+":"+nameValues[i+1])
	}
	return strings.Join(parts, " ")
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
