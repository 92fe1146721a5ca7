package commands

import (
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// Route names the route that would answer i, for an operator's counts: a
// command's path ("nim/start", "autocomplete/nim/move"), a control's kind
// ("move", "heap"), or "other" for anything nimbot has no route for. The
// names come from a fixed set, never from what a client sent, so counts by
// route stay as few as the routes.
func Route(i *discordgo.Interaction) string {
	p := interactionPath(i)
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		if commandPaths()[strings.TrimPrefix(p, "autocomplete/")] {
			return p
		}
	case discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
		kind, _, _ := strings.Cut(p, "/")
		if _, ok := controlKinds[kind]; ok {
			return kind
		}
	}
	return "other"
}

// commandPaths are the paths of the commands Definitions registers.
var commandPaths = sync.OnceValue(func() map[string]bool {
	paths := map[string]bool{}
	for _, c := range Definitions() {
		paths[c.Name] = true
		for _, o := range c.Options {
			if o.Type == discordgo.ApplicationCommandOptionSubCommand {
				paths[c.Name+"/"+o.Name] = true
			}
		}
	}
	return paths
})
