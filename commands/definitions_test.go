package commands

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
)

// definitionBudget is the share of Discord's 4,000-character cap on a
// command's names, descriptions and values that /nim may use in any one
// language: the rest is headroom for a new option or a longer translation.
const definitionBudget = 3700

// discordCap is Discord's limit on a command's names, descriptions and
// values together.
const discordCap = 4000

// inLocale is a field's text as a user of locale l sees it: l's
// localization, else the default. An empty l counts the default alone.
func inLocale(def string, loc map[discordgo.Locale]string, l discordgo.Locale) int {
	if s, ok := loc[l]; ok && l != "" {
		return utf8.RuneCountInString(s)
	}
	return utf8.RuneCountInString(def)
}

// longest is the longest of a field's default text and its localizations.
func longest(def string, loc map[discordgo.Locale]string, _ discordgo.Locale) int {
	n := utf8.RuneCountInString(def)
	for _, s := range loc {
		n = max(n, utf8.RuneCountInString(s))
	}
	return n
}

func locales(m *map[discordgo.Locale]string) map[discordgo.Locale]string {
	if m == nil {
		return nil
	}
	return *m
}

// definitionSize counts a command the way Discord does ("the combined sum
// of characters for all name, description, and value properties for a
// command, its options (including subcommands and groups), and choices"),
// each field measured by field: inLocale for one locale's command, longest
// for the strictest reading of Discord's rule on localizations (the longest
// of each field, whatever its language).
func definitionSize(c *discordgo.ApplicationCommand, field func(string, map[discordgo.Locale]string, discordgo.Locale) int, l discordgo.Locale) int {
	n := field(c.Name, locales(c.NameLocalizations), l) + field(c.Description, locales(c.DescriptionLocalizations), l)
	var walk func([]*discordgo.ApplicationCommandOption)
	walk = func(opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			n += field(o.Name, o.NameLocalizations, l) + field(o.Description, o.DescriptionLocalizations, l)
			for _, ch := range o.Choices {
				n += field(ch.Name, ch.NameLocalizations, l) + utf8.RuneCountInString(fmt.Sprint(ch.Value))
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	return n
}

// TestDefinitionSize checks each locale's command (the English base with
// that locale's localizations in place) against the budget, and the
// longest-of-every-field total against Discord's cap itself.
func TestDefinitionSize(t *testing.T) {
	for _, c := range Definitions() {
		for _, l := range append([]discordgo.Locale{""}, locale.Served()...) {
			size := definitionSize(c, inLocale, l)
			t.Logf("/%s in %q: %d characters of Discord's %d", c.Name, string(l), size, discordCap)
			if size > definitionBudget {
				t.Errorf("/%s in %q: %d characters, over the budget of %d (Discord refuses more than %d)", c.Name, string(l), size, definitionBudget, discordCap)
			}
		}
		size := definitionSize(c, longest, "")
		t.Logf("/%s, longest of each field in any language: %d characters", c.Name, size)
		if size > discordCap {
			t.Errorf("/%s: %d characters counting the longest of each field, over Discord's %d", c.Name, size, discordCap)
		}
	}
}

// TestDefinitionSizeCounts checks the counter on a command small enough to
// count by hand, localizations included.
func TestDefinitionSizeCounts(t *testing.T) {
	c := &discordgo.ApplicationCommand{
		Name: "ab", Description: "cde", // 5
		DescriptionLocalizations: &map[discordgo.Locale]string{discordgo.French: "fghijk"}, // 6 instead of 3: 8
		Options: []*discordgo.ApplicationCommandOption{{
			Name: "sub", Description: "xy", // 5: 13
			Options: []*discordgo.ApplicationCommandOption{{
				Name: "o", Description: "é", // 2: 15
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "one", Value: 1}, {Name: "two", Value: "2nd"}}, // 4 + 6: 25
			}},
		}},
	}
	if got := definitionSize(c, longest, ""); got != 25 {
		t.Fatalf("longest: size %d, want 25", got)
	}
	if got := definitionSize(c, inLocale, discordgo.French); got != 25 {
		t.Fatalf("in French: size %d, want 25", got)
	}
	if got := definitionSize(c, inLocale, discordgo.German); got != 22 {
		t.Fatalf("in German (no localization: the default): size %d, want 22", got)
	}
	if got := definitionSize(c, inLocale, ""); got != 22 {
		t.Fatalf("default: size %d, want 22", got)
	}
}

func TestDefinedOption(t *testing.T) {
	definedOption := declare(Definitions()).option
	k := definedOption("start", optK)
	if k == nil || k.MinValue == nil || *k.MinValue != 1 || k.MaxValue != 20 {
		t.Fatalf("start k: %+v", k)
	}
	if definedOption("start", "nope") != nil || definedOption("nope", optK) != nil {
		t.Fatal("an option that does not exist was found")
	}
}
