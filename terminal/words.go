package terminal

import (
	"errors"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
)

// words is the terminal's own text in the player's language: its prompts,
// help and refusals (nimbot's catalog, through commands.ClientText), and
// commands, options and choices named as the player's Discord shows them.
// The zero words speaks English with the English names.
type words struct {
	client commands.ClientText
	locale discordgo.Locale
}

func newWords(locale string) words {
	return words{client: commands.ClientTextFor(locale), locale: discordgo.Locale(locale)}
}

// t renders the terminal's message id.
func (w words) t(id string, nameValues ...any) string { return w.client.Terminal(id, nameValues...) }

// err is message id as an error.
func (w words) err(id string, nameValues ...any) error { return errors.New(w.t(id, nameValues...)) }

// local is name as Discord shows it in the player's language: its
// localization, else the name itself.
func (w words) local(name string, names map[discordgo.Locale]string) string {
	if n, ok := names[w.locale]; ok && n != "" {
		return n
	}
	return name
}

// command is a command's name as the player's Discord shows it.
func (w words) command(d *discordgo.ApplicationCommand) string {
	if d.NameLocalizations == nil {
		return d.Name
	}
	return w.local(d.Name, *d.NameLocalizations)
}

// option is an option's (or subcommand's) name as the player's Discord
// shows it.
func (w words) option(o *discordgo.ApplicationCommandOption) string {
	return w.local(o.Name, o.NameLocalizations)
}
