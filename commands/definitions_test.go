package commands

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// definitionBudget is the share of Discord's 4,000-character cap on a
// command's names, descriptions and values that /nim may use: the rest is
// headroom for a new option or a longer translation.
const definitionBudget = 3000

// longest is the longest of a field's default text and its localizations,
// which is what Discord counts.
func longest(def string, loc map[discordgo.Locale]string) int {
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
// command, its options (including subcommands and groups), and choices";
// with localizations, the longest of each field).
func definitionSize(c *discordgo.ApplicationCommand) int {
	n := longest(c.Name, locales(c.NameLocalizations)) + longest(c.Description, locales(c.DescriptionLocalizations))
	var walk func([]*discordgo.ApplicationCommandOption)
	walk = func(opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			n += longest(o.Name, o.NameLocalizations) + longest(o.Description, o.DescriptionLocalizations)
			for _, ch := range o.Choices {
				n += longest(ch.Name, ch.NameLocalizations) + utf8.RuneCountInString(fmt.Sprint(ch.Value))
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	return n
}

func TestDefinitionSize(t *testing.T) {
	for _, c := range Definitions() {
		size := definitionSize(c)
		t.Logf("/%s: %d characters of Discord's 4000", c.Name, size)
		if size > definitionBudget {
			t.Errorf("/%s: %d characters, over the budget of %d (Discord refuses more than 4000)", c.Name, size, definitionBudget)
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
	if got := definitionSize(c); got != 25 {
		t.Fatalf("size %d, want 25", got)
	}
}

func TestDefinedOption(t *testing.T) {
	k := definedOption("start", optK)
	if k == nil || k.MinValue == nil || *k.MinValue != 1 || k.MaxValue != 20 {
		t.Fatalf("start k: %+v", k)
	}
	if definedOption("start", "nope") != nil || definedOption("nope", optK) != nil {
		t.Fatal("an option that does not exist was found")
	}
}
