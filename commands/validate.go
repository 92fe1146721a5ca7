package commands

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
)

// maxExactInteger is the largest integer an option may carry: Discord's
// integer options range over ±2^53, where a float64 (as JSON decodes them)
// is still exact.
const maxExactInteger = 1 << 53

// maxCustomID is the longest custom_id Discord lets a component or modal
// carry (in characters); every one nimbot makes is shorter.
const maxCustomID = 100

// declaredOptions indexes the options Definitions declares, by subcommand
// and option name, so that an interaction's options are checked against
// the very types and bounds Discord was told (and that Discord enforces in
// its own client, but a forged request need not).
type declaredOptions struct {
	commands map[string]bool // the commands declared with subcommands
	subs     map[string]map[string]*discordgo.ApplicationCommandOption
}

func declare(defs []*discordgo.ApplicationCommand) declaredOptions {
	d := declaredOptions{commands: map[string]bool{}, subs: map[string]map[string]*discordgo.ApplicationCommandOption{}}
	for _, c := range defs {
		for _, sub := range c.Options {
			if sub.Type != discordgo.ApplicationCommandOptionSubCommand {
				continue
			}
			d.commands[c.Name] = true
			m := map[string]*discordgo.ApplicationCommandOption{}
			for _, o := range sub.Options {
				m[o.Name] = o
			}
			d.subs[sub.Name] = m
		}
	}
	return d
}

// option returns the declared option name of /nim sub, or nil.
func (d declaredOptions) option(sub, name string) *discordgo.ApplicationCommandOption {
	return d.subs[sub][name]
}

// validate refuses an interaction that lacks, or garbles, a field Discord
// always sends: its id, a known type with the data of that type, the user
// who caused it, the channel, and options of the declared types within the
// declared bounds. Handlers can then trust them; a forged or truncated
// request is told what was wrong and changes nothing.
func (s *Service) validate(i *discordgo.Interaction) error {
	if !match.IsSnowflake(i.ID) {
		return userErr("play.err.bad_id")
	}
	var dataOK bool
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		_, dataOK = i.Data.(discordgo.ApplicationCommandInteractionData)
	case discordgo.InteractionMessageComponent:
		_, dataOK = i.Data.(discordgo.MessageComponentInteractionData)
	case discordgo.InteractionModalSubmit:
		_, dataOK = i.Data.(discordgo.ModalSubmitInteractionData)
	default:
		return userErr("play.err.bad_type", "Type", int(i.Type))
	}
	if !dataOK {
		return userErr("play.err.bad_data", "Kind", interactionKind(i.Type))
	}
	user := (&request{i: i}).userID()
	switch {
	case user == "":
		return userErr("play.err.no_user")
	case user == match.BotID || !match.IsSnowflake(user):
		return userErr("play.err.bad_user", "User", quote(user, 30))
	case i.AppID != "" && user == i.AppID:
		return userErr("play.err.self")
	}
	if !match.IsSnowflake(i.ChannelID) {
		return userErr("play.err.no_channel")
	}
	if i.GuildID != "" && !match.IsSnowflake(i.GuildID) {
		return userErr("play.err.bad_guild", "Guild", quote(i.GuildID, 30))
	}
	switch d := i.Data.(type) {
	case discordgo.ApplicationCommandInteractionData:
		return s.declared.check(d, i.Type == discordgo.InteractionApplicationCommandAutocomplete)
	case discordgo.MessageComponentInteractionData:
		return checkCustomID(d.CustomID)
	case discordgo.ModalSubmitInteractionData:
		return checkCustomID(d.CustomID)
	}
	return nil
}

// checkCustomID refuses a custom_id longer than Discord allows: none of
// nimbot's controls, and every route would otherwise split all of it.
func checkCustomID(id string) error {
	// Four bytes a character at most: longer is over without counting.
	if len(id) > 4*maxCustomID || utf8.RuneCountInString(id) > maxCustomID {
		return userErr("play.err.long_custom_id", "Max", maxCustomID)
	}
	return nil
}

// check compares a command's options with the declaration. A declared
// command comes as Discord sends it, with exactly one option, the
// subcommand, and that subcommand's options inside it: any other shape
// (options beside the subcommand, a subcommand group, none) would reach
// a handler with options nobody checked. Commands and subcommands nimbot
// does not declare are left to the router, which answers them as unknown.
// In autocomplete the option being typed is partial by nature (Discord
// sends even a number as the text typed so far), so only its name is
// checked.
func (d declaredOptions) check(data discordgo.ApplicationCommandInteractionData, autocomplete bool) error {
	if !d.commands[data.Name] {
		return nil
	}
	if len(data.Options) != 1 || data.Options[0] == nil || data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return userErr("play.err.bad_shape", "Command", quote(data.Name, 32))
	}
	sub := data.Options[0]
	decl, ok := d.subs[sub.Name]
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	for _, o := range sub.Options {
		if o == nil {
			return userErr("play.err.empty_option", "Sub", subName(sub.Name))
		}
		def, ok := decl[o.Name]
		if !ok {
			return userErr("play.err.no_option", "Sub", subName(sub.Name), "Option", quote(o.Name, 32))
		}
		if seen[o.Name] {
			return userErr("play.err.option_twice", "Option", optionName(def.Name))
		}
		seen[o.Name] = true
		if o.Type != def.Type || len(o.Options) > 0 {
			return userErr("play.err.option_type", "Option", optionName(def.Name), "Kind", optionKind(def.Type))
		}
		if autocomplete && o.Focused {
			if _, ok := o.Value.(string); !ok && o.Value != nil {
				return userErr("play.err.focused_text", "Option", optionName(def.Name))
			}
			continue
		}
		if err := checkValue(def, o.Value); err != nil {
			return err
		}
	}
	return nil
}

// checkValue checks one option's value against its declaration.
func checkValue(def *discordgo.ApplicationCommandOption, v any) error {
	bad := func() error {
		return userErr("play.err.option_type", "Option", optionName(def.Name), "Kind", optionKind(def.Type))
	}
	switch def.Type {
	case discordgo.ApplicationCommandOptionString:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		if def.MaxLength > 0 && utf8.RuneCountInString(s) > def.MaxLength {
			return userErr("play.err.option_long", "Option", optionName(def.Name), "Count", def.MaxLength)
		}
		if def.MinLength != nil && utf8.RuneCountInString(s) < *def.MinLength {
			return userErr("play.err.option_short", "Option", optionName(def.Name), "Count", *def.MinLength)
		}
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		f, ok := v.(float64)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) || (def.Type == discordgo.ApplicationCommandOptionInteger && f != math.Trunc(f)) {
			return bad()
		}
		lo, hi := float64(-maxExactInteger), float64(maxExactInteger)
		if def.MinValue != nil {
			lo = max(lo, *def.MinValue)
		}
		if def.MaxValue != 0 {
			hi = min(hi, def.MaxValue)
		}
		if f < lo || f > hi {
			return userErr("play.err.option_range", "Option", optionName(def.Name), "Min", optionNumber(lo), "Max", optionNumber(hi), "Value", optionNumber(f))
		}
	case discordgo.ApplicationCommandOptionBoolean:
		if _, ok := v.(bool); !ok {
			return bad()
		}
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionChannel,
		discordgo.ApplicationCommandOptionRole, discordgo.ApplicationCommandOptionMentionable:
		if s, ok := v.(string); !ok || !match.IsSnowflake(s) {
			return bad()
		}
	}
	if len(def.Choices) > 0 && !isChoice(def.Choices, v) {
		var vals []string
		for _, c := range def.Choices {
			vals = append(vals, fmt.Sprint(c.Value))
		}
		return userErr("play.err.option_choice", "Option", optionName(def.Name), "Choices", strings.Join(vals, ", "))
	}
	return nil
}

// isChoice reports whether v is one of the declared choices. Choices are
// declared as Go values (int, string) and arrive as JSON values (float64,
// string), so they are compared as JSON would print them.
func isChoice(cs []*discordgo.ApplicationCommandOptionChoice, v any) bool {
	for _, c := range cs {
		if fmt.Sprint(c.Value) == fmt.Sprint(v) {
			return true
		}
	}
	return false
}

// optionNumber is a number option's bound or value as a message argument:
// an integer (formatted per language) when it is an exact one, else its
// shortest digits as JavaScript prints a number, in exponent form when
// very large or very small, so that a forged 1e300 is echoed as "1e+300"
// rather than as three hundred digits.
func optionNumber(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) <= maxExactInteger {
		return int64(f)
	}
	if a := math.Abs(f); a >= 1e21 || a < 1e-6 {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// optionKind names an option type for a user, as an argument of
// play.err.option_type.
func optionKind(t discordgo.ApplicationCommandOptionType) engine.Phrase {
	switch t {
	case discordgo.ApplicationCommandOptionString:
		return msg("play.option.text")
	case discordgo.ApplicationCommandOptionInteger:
		return msg("play.option.integer")
	case discordgo.ApplicationCommandOptionNumber:
		return msg("play.option.number")
	case discordgo.ApplicationCommandOptionBoolean:
		return msg("play.option.boolean")
	case discordgo.ApplicationCommandOptionUser:
		return msg("play.option.user")
	}
	return msg("play.option.declared")
}
