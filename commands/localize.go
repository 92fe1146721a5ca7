package commands

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// A message id of the catalog names where its text is shown, so one walk
// over the definition finds every text to translate:
//
//	nim.desc                       the command's description
//	nim.<sub>.name / .desc         a subcommand
//	opt.<option>.name              an option's name (the same in every subcommand)
//	nim.<sub>.<option>.desc        an option's description
//	choice.<option>.<value>        a choice's name
//	variant.<id>.title / .summary  a variant's name and one-line move, for its choices
//
// The English file holds each id's default text, which a test compares with
// the definition, so neither drifts from the other; a variant's title and
// summary are the engine's phrases (Description.TitlePhrase), whose English
// is the engine's table and whose translations are in rules.<lang>.json.
func cmdDescID(c *discordgo.ApplicationCommand) string { return c.Name + ".desc" }
func subNameID(c *discordgo.ApplicationCommand, s *discordgo.ApplicationCommandOption) string {
	return c.Name + "." + s.Name + ".name"
}
func subDescID(c *discordgo.ApplicationCommand, s *discordgo.ApplicationCommandOption) string {
	return c.Name + "." + s.Name + ".desc"
}
func optNameID(o *discordgo.ApplicationCommandOption) string { return "opt." + o.Name + ".name" }
func optDescID(c *discordgo.ApplicationCommand, s, o *discordgo.ApplicationCommandOption) string {
	return c.Name + "." + s.Name + "." + o.Name + ".desc"
}
func choiceID(o *discordgo.ApplicationCommandOption, ch *discordgo.ApplicationCommandOptionChoice) string {
	return "choice." + o.Name + "." + fmt.Sprint(ch.Value)
}
func variantTitleID(v engine.Variant) string   { return "variant." + string(v) + ".title" }
func variantSummaryID(v engine.Variant) string { return "variant." + string(v) + ".summary" }

// variantMenuSep joins a variant's title and summary in /nim start's menu.
const variantMenuSep = " — "

// localize adds every shipped locale's names and descriptions to c, in
// place. The base names stay the English ones, which Discord sends back
// whatever the user's language, so routing does not change.
func localize(c *discordgo.ApplicationCommand) {
	if m := locale.Localizations(cmdDescID(c)); m != nil {
		c.DescriptionLocalizations = &m
	}
	for _, s := range c.Options {
		s.NameLocalizations = locale.Localizations(subNameID(c, s))
		s.DescriptionLocalizations = locale.Localizations(subDescID(c, s))
		for _, o := range s.Options {
			o.NameLocalizations = locale.Localizations(optNameID(o))
			o.DescriptionLocalizations = locale.Localizations(optDescID(c, s, o))
			for _, ch := range o.Choices {
				ch.NameLocalizations = choiceLocalizations(o, ch)
			}
		}
	}
}

// choiceLocalizations translates a choice's name: a variant by its id (its
// title, and its summary where the English name has one, joined and cut as
// variantChoices does), any other choice by option and value.
func choiceLocalizations(o *discordgo.ApplicationCommandOption, ch *discordgo.ApplicationCommandOptionChoice) map[discordgo.Locale]string {
	if o.Name != optVariant {
		return locale.Localizations(choiceID(o, ch))
	}
	v := engine.Variant(fmt.Sprint(ch.Value))
	titles := locale.Localizations(variantTitleID(v))
	if !strings.Contains(ch.Name, variantMenuSep) {
		return titles
	}
	summaries := locale.Localizations(variantSummaryID(v))
	out := map[discordgo.Locale]string{}
	for l, t := range titles {
		if s, ok := summaries[l]; ok {
			out[l] = truncate(t+variantMenuSep+s, 100)
		}
	}
	return out
}
