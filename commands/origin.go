package commands

import (
	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// originKind is where an interaction comes from, as Discord's context tells
// it apart.
type originKind uint8

const (
	// inServer is a server's channel (context 0, GUILD), whether nimbot
	// was installed there by the server or by the user.
	inServer originKind = iota + 1
	// inBotDM is a DM with nimbot (context 1, BOT_DM).
	inBotDM
	// inPrivate is a group DM or a DM between users (context 2,
	// PRIVATE_CHANNEL), where nimbot is no member.
	inPrivate
)

// origin is where an interaction comes from: the one answer every route
// asks, decided once from the fields Discord sends (originOf).
type origin struct {
	kind    originKind
	guild   string // the server's id; "" outside servers
	channel string
}

// errBadPlace refuses an interaction whose fields disagree about where it
// comes from: a combination Discord never sends, so only a forged or
// garbled request carries it.
func errBadPlace() error { return userErr("play.err.bad_place") }

// originOf decides where i comes from, from its context, guild_id, member
// or user, and the channel, and refuses the combinations Discord never
// sends. In a server Discord sends context 0, the guild's id and the member
// (with the user and their permissions in the channel); outside one it
// sends context 1 or 2, the user and no member. A payload from before
// contexts existed has none (it decodes as 0): without a guild id it is
// read as a DM with nimbot, the only DMs an app was in then. What else
// names the place must agree: a guild install among the authorizing owners
// is this server's (or "0" in a DM with nimbot), and a clicked message is
// in the interaction's channel.
//
// validate has checked the ids' shapes, and that there is a user.
func originOf(i *discordgo.Interaction) (origin, error) {
	p := origin{guild: i.GuildID, channel: i.ChannelID}
	if i.Message != nil && i.Message.ChannelID != "" && i.Message.ChannelID != i.ChannelID {
		return origin{}, errBadPlace()
	}
	owner, guildInstall := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	if i.GuildID != "" {
		// A guild id outside a server's context, a server's payload without
		// its member, another user beside the member, another server's
		// install.
		if i.Context != discordgo.InteractionContextGuild || i.Member == nil ||
			(i.User != nil && i.Member.User != nil && i.User.ID != i.Member.User.ID) ||
			(guildInstall && owner != i.GuildID) {
			return origin{}, errBadPlace()
		}
		p.kind = inServer
		return p, nil
	}
	// Outside servers there is no member, and no server installed nimbot.
	if i.Member != nil || (guildInstall && owner != "0") {
		return origin{}, errBadPlace()
	}
	switch i.Context {
	case discordgo.InteractionContextGuild: // none sent: an older payload
		p.kind = inBotDM
	case discordgo.InteractionContextBotDM:
		p.kind = inBotDM
	case discordgo.InteractionContextPrivateChannel:
		if guildInstall {
			// nimbot is no member of a group DM: only a user install
			// reaches one.
			return origin{}, errBadPlace()
		}
		p.kind = inPrivate
	default:
		return origin{}, errBadPlace()
	}
	return p, nil
}

// holds reports whether g is played where p is: in p's server, or outside
// servers when p is. A game is found by its channel or by a control's id,
// and neither says which server the request comes from; without this, a
// request naming one server (and its permissions there) could act on a game
// of another server, or of a DM, in a channel of the same id.
func (p origin) holds(g *match.Game) bool { return g.GuildID == p.guild }

// errElsewhere refuses a request whose origin is not its game's place (holds).
func errElsewhere() error { return userErr("play.err.place_mismatch") }

// atGame refuses r on g unless g is played where r comes from (holds).
func atGame(r *request, g *match.Game) error {
	if !r.origin.holds(g) {
		return errElsewhere()
	}
	return nil
}

// moderates reports whether r's user may act on g as a moderator: a member
// of g's own server who can manage messages there. A permission is a
// server's, so it counts only inside the game's server: never in a DM or a
// group DM, whatever a payload claims, nor for a game of another server.
func (r *request) moderates(g *match.Game) bool {
	return r.origin.kind == inServer && g.GuildID != "" && g.GuildID == r.origin.guild &&
		r.i.Member != nil && r.i.Member.Permissions&discordgo.PermissionManageMessages != 0
}
