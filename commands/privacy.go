package commands

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// /nim privacy shows a user what nimbot holds about them (match.Storage's
// Holdings, counted per server) and offers to delete it, behind a
// confirmation. Only the interaction's own user is ever shown or deleted:
// no id is taken from a custom_id or an option, so a forged click can at
// most delete its sender's own data, which the user may do anyway. None of
// these answers is saved (they would name the user in the store the moment
// after they asked to leave it). A confirmation clicked again within
// forgetAgainAfter (a redelivery, or a forged custom_id repeated) is
// refused with a clear answer; later, it forgets again, which finds
// nothing.

// subPrivacy is /nim privacy's subcommand name.
const subPrivacy = "privacy"

// confirmFor is how long a "Yes, delete my data" button stays good: an
// interaction token's life, after which a forgotten ephemeral message is
// better asked again than acted on.
const confirmFor = 15 * time.Minute

// forgetAgainAfter is how soon after a deletion on request the same user
// may ask again: a confirmation's custom_id can be forged and clicked at
// will, and each deletion reads every saved answer.
const forgetAgainAfter = time.Minute

// recentForgets notes who deleted their data in the last forgetAgainAfter,
// in this process. Entries older than that are dropped whenever one is
// added, so it holds at most the users of the last minute.
type recentForgets struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// take notes user's deletion at now; false, noting nothing, if their last
// was less than forgetAgainAfter before.
func (f *recentForgets) take(user string, now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if at, ok := f.last[user]; ok && now.Sub(at) < forgetAgainAfter && now.Sub(at) > -forgetAgainAfter {
		return false
	}
	if f.last == nil {
		f.last = map[string]time.Time{}
	}
	for u, at := range f.last {
		if now.Sub(at) >= forgetAgainAfter {
			delete(f.last, u)
		}
	}
	f.last[user] = now
	return true
}

// privacyShown bounds the scopes /nim privacy lists one by one; the rest
// are counted, so the answer stays within an embed's 4,096 characters.
const privacyShown = 20

// ForgetControl is one of /nim privacy's buttons: forget/ask (Delete my
// data…), forget/yes/{issued} (the confirmation, good for confirmFor after
// issued, in Unix seconds) and forget/no (Cancel). It acts on no game.
type ForgetControl struct {
	Step   string // "ask", "yes" or "no"
	Issued int64  // "yes" only
}

// The steps of ForgetControl.
const (
	forgetAsk = "ask"
	forgetYes = "yes"
	forgetNo  = "no"
)

var forgetKind = controlKind[ForgetControl]{name: "forget", read: func(f *segments) ForgetControl {
	c := ForgetControl{Step: f.text()}
	switch c.Step {
	case forgetYes:
		c.Issued = f.number("issued")
	case forgetAsk, forgetNo:
	default:
		f.fail("step")
	}
	return c
}}

func init() { controlKinds[forgetKind.name] = forgetKind }

// CustomID is the control's custom_id.
func (c ForgetControl) CustomID() string {
	if c.Step == forgetYes {
		return forgetKind.id(c.Step, c.Issued)
	}
	return forgetKind.id(c.Step)
}

// Target is no game: the control acts on its user's data.
func (c ForgetControl) Target() (int64, int) { return 0, -1 }
func (ForgetControl) kindName() string       { return forgetKind.name }

// privacy answers /nim privacy: what nimbot holds about the user, and the
// Delete button when it holds anything.
func (s *Service) privacy(r *request) (*discordgo.InteractionResponse, error) {
	held, err := s.db.Holdings(r.ctx, r.userID())
	if err != nil {
		return nil, fmt.Errorf("privacy: %w", err)
	}
	lines := []string{r.t("privacy.intro")}
	if len(held) == 0 {
		lines = append(lines, "", r.t("privacy.none"))
	}
	here := match.Scope(r.i.GuildID, r.i.ChannelID)
	var places []string
	for _, h := range held {
		if h.Scope == "" {
			continue
		}
		var counts []string
		for _, c := range []struct {
			id string
			n  int
		}{{"privacy.games", h.Games}, {"privacy.moves", h.Moves}, {"privacy.hints", h.Hints}, {"privacy.records", h.Records}, {"privacy.puzzles", h.Puzzles}} {
			if c.n > 0 {
				counts = append(counts, r.t(c.id, "Count", c.n))
			}
		}
		line := "**" + scopeName(r, h.Scope, here) + "** — " + strings.Join(counts, " · ")
		if h.Scope == here {
			places = append([]string{line}, places...)
		} else {
			places = append(places, line)
		}
	}
	if len(places) > 0 {
		lines = append(lines, "")
		if len(places) > privacyShown {
			more := len(places) - privacyShown
			places = append(places[:privacyShown], r.t("privacy.more", "Count", more))
		}
		lines = append(lines, places...)
	}
	for _, h := range held {
		if h.Scope == "" && h.Learning > 0 {
			lines = append(lines, "", r.t("privacy.learning", "Count", h.Learning))
		}
		if h.Scope == "" && h.Answers > 0 {
			lines = append(lines, "", r.t("privacy.answers", "Count", h.Answers))
		}
	}
	data := &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()}
	if len(held) > 0 {
		lines = append(lines, "", r.t("privacy.delete_note", "Tombstone", match.Tombstone))
		data.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: r.t("control.privacy.delete"), Style: discordgo.DangerButton, CustomID: ForgetControl{Step: forgetAsk}.CustomID()},
		}}}
	}
	data.Embeds = []*discordgo.MessageEmbed{{Title: r.t("privacy.title"), Description: truncate(strings.Join(lines, "\n"), 4096), Color: colourActive}}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data}, nil
}

// scopeName names a scope for its user: this server, another server or a
// private conversation by id (nimbot keeps no names).
func scopeName(r *request, scope, here string) string {
	switch {
	case scope == here && r.i.GuildID != "":
		return r.t("privacy.scope.here")
	case scope == here:
		return r.t("privacy.scope.this_dm")
	case strings.HasPrefix(scope, "dm:"):
		return r.t("privacy.scope.dm", "ID", "`"+strings.TrimPrefix(scope, "dm:")+"`")
	}
	return r.t("privacy.scope.server", "ID", "`"+scope+"`")
}

// forgetButton answers /nim privacy's buttons.
func (s *Service) forgetButton(r *request, c ForgetControl) (*answer, error) {
	switch c.Step {
	case forgetAsk:
		yes := ForgetControl{Step: forgetYes, Issued: r.now.Unix()}
		return unchanged(privacyMessage(r, "⚠️ "+r.t("privacy.confirm"), discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: r.t("control.privacy.yes"), Style: discordgo.DangerButton, CustomID: yes.CustomID()},
			discordgo.Button{Label: r.t("control.privacy.no"), Style: discordgo.SecondaryButton, CustomID: ForgetControl{Step: forgetNo}.CustomID()},
		}})), nil
	case forgetYes:
		issued := time.Unix(c.Issued, 0)
		if r.now.Sub(issued) > confirmFor || issued.Sub(r.now) > time.Minute {
			return nil, userErr("privacy.err.expired", "PrivacyCommand", subName(subPrivacy))
		}
		if !s.forgot.take(r.userID(), r.now) {
			return nil, userErr("privacy.err.again")
		}
		f, err := s.db.ForgetUser(r.ctx, r.userID())
		// Their games in progress have ended: no board kept here names them.
		s.recent.dropAll()
		if err != nil {
			return nil, fmt.Errorf("forgetting a user: %w", err)
		}
		text := "✅ " + r.t("privacy.done", "Tombstone", match.Tombstone)
		if f.Zero() {
			text = r.t("privacy.nothing")
		} else if f.Ended > 0 {
			text += "\n" + r.t("privacy.done_ended", "Count", int(f.Ended))
		}
		s.log.Info("forgot a user on request", "interaction", r.i.ID, "games_deleted", f.Deleted, "games_ended", f.Ended,
			"games_kept", f.Anonymized, "records", f.Records, "answers", f.Answers)
		return unchanged(privacyMessage(r, text)), nil
	}
	return unchanged(privacyMessage(r, r.t("privacy.cancelled"))), nil
}

// privacyMessage is a step of the deletion: the ephemeral message the
// button was on, edited, with rows as its only controls. A click that
// does not come from an ephemeral message (only a forged custom_id can)
// gets a new ephemeral message instead, so no public message is changed.
func privacyMessage(r *request, text string, rows ...discordgo.MessageComponent) *discordgo.InteractionResponse {
	data := &discordgo.InteractionResponseData{Content: truncate(text, 2000), AllowedMentions: noMentions(),
		Components: append([]discordgo.MessageComponent{}, rows...), Embeds: []*discordgo.MessageEmbed{}}
	if r.i.Message != nil && r.i.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: data}
	}
	data.Flags = discordgo.MessageFlagsEphemeral
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data}
}
