package terminal

import "github.com/bwmarrin/discordgo"

// The terminal's fixed Discord identities: one guild, one channel, two local
// players and the application. They look like snowflakes because the
// service may treat them as such.
const (
	appID     = "1300000000000000000"
	guildID   = "1300000000000000001"
	channelID = "1300000000000000002"
)

// discordEpoch is the first millisecond of 2015, where snowflakes count from.
const discordEpoch = 1420070400000

// allPermissions stands in for the local players' permissions: it is their
// own terminal, so they may do what a server's moderators may.
const allPermissions = discordgo.PermissionAdministrator | discordgo.PermissionManageMessages |
	discordgo.PermissionManageChannels | discordgo.PermissionManageGuild |
	discordgo.PermissionSendMessages | discordgo.PermissionViewChannel

var (
	localPlayers = []person{
		{ID: "1300000000000000011", Name: "player1"},
		{ID: "1300000000000000012", Name: "player2"},
	}
	nimbotUser = person{ID: appID, Name: "nimbot", Bot: true}
)
