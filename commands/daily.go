package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/match"
)

// The daily puzzle (/nim daily): one puzzle per UTC day, the same for
// everyone everywhere (match.DailyPuzzle of the day), shown to whoever
// asks; a member with Manage Server subscribes a channel, where nimbot then
// posts the day's puzzle once a day (DailyPosts, sent by bot's scheduler)
// with yesterday's answer explained, and edits it with the running count
// of today's solves (DailyEdits) while the day lasts.

// The daily subcommand's name and options.
const (
	subDaily    = "daily"
	optChannel  = "channel"
	optStop     = "stop"
	dailyLease  = 2 * time.Minute
	dailyClaims = 50
	// dailyEditEvery is how often a day's post is edited at most with
	// the running count of solves: a few edits an hour per channel.
	dailyEditEvery = 10 * time.Minute
)

// dailySub is the /nim daily subcommand's definition.
func dailySub() *discordgo.ApplicationCommandOption {
	channel := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionChannel, Name: optChannel,
		Description:  "Post it here every day (Manage Server)",
		ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews}}
	stop := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: optStop,
		Description: "Stop posting it in that channel"}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: subDaily,
		Description: "Today's puzzle, the same for everyone", Options: []*discordgo.ApplicationCommandOption{channel, stop}}
}

// dailyCommand shows today's puzzle, or (with a channel) subscribes or
// unsubscribes a channel.
func (s *Service) dailyCommand(r *request) (*answer, error) {
	o := subOptions(r.i)
	channel := o.str(optChannel)
	if channel == "" {
		if o.bool(optStop) {
			return nil, userErr("daily.err.stop_channel", "ChannelOption", optionName(optChannel))
		}
		z, err := match.DailyPuzzle(r.now)
		if err != nil {
			return nil, fmt.Errorf("daily puzzle: %w", err)
		}
		resp := puzzleMessage(r.lang, match.StartPuzzle(z), PuzzleControl{Puzzle: z.ID, Key: r.i.ID}, discordgo.InteractionResponseChannelMessageWithSource,
			r.t("daily.today", "Date", r.now.UTC().Format(time.DateOnly)))
		return unchanged(resp), nil
	}
	// Where the request comes from is decided once (originOf), so the
	// Manage Server bit is read only in a server whose fields agree.
	if r.origin.kind != inServer {
		return nil, userErr("daily.err.server")
	}
	if r.i.Member.Permissions&discordgo.PermissionManageGuild == 0 {
		return nil, userErr("daily.err.permission")
	}
	// The channel must be one Discord resolved for this interaction, of
	// this server: a forged id names no channel here.
	d := r.i.ApplicationCommandData()
	if d.Resolved == nil || d.Resolved.Channels[channel] == nil ||
		(d.Resolved.Channels[channel].GuildID != "" && d.Resolved.Channels[channel].GuildID != r.i.GuildID) {
		return nil, userErr("daily.err.channel")
	}
	if o.bool(optStop) {
		return s.answers.commit(r, 0, func(interactionID string, keep func(*discordgo.InteractionResponse) ([]byte, error)) (bool, error) {
			b, err := keep(ephemeral(r.t("daily.unsubscribed", "Channel", "<#"+channel+">")))
			if err != nil {
				return false, err
			}
			removed, err := s.db.UnsubscribeDaily(r.ctx, channel, interactionID, b)
			if err != nil {
				return false, fmt.Errorf("unsubscribe daily: %w", err)
			}
			if !removed {
				_, err := keep(ephemeral(r.t("daily.not_subscribed", "Channel", "<#"+channel+">")))
				return false, err
			}
			return true, nil
		})
	}
	return s.answers.commit(r, 0, func(interactionID string, keep func(*discordgo.InteractionResponse) ([]byte, error)) (bool, error) {
		b, err := keep(ephemeral(r.t("daily.subscribed", "Channel", "<#"+channel+">", "DailyCommand", subName(subDaily))))
		if err != nil {
			return false, err
		}
		d := match.DailyChannel{ChannelID: channel, GuildID: r.i.GuildID, UserID: r.userID(), Locale: string(r.i.Locale)}
		if err := s.db.SubscribeDaily(r.ctx, d, interactionID, b); err != nil {
			return false, fmt.Errorf("subscribe daily: %w", err)
		}
		return true, nil
	})
}

// DailyPost is one channel's post of the day's puzzle, for the bot to send
// by REST and then report with DailyDone (or DailyGone).
type DailyPost struct {
	ChannelID string
	GuildID   string
	Day       int64
	// Solved is the count of today's solves the post shows.
	Solved int
	// Nonce is the post's nonce: the same for a channel and day wherever
	// and however often it is sent, so Discord (enforce_nonce) creates the
	// message once even if an instance died between sending and DailyDone.
	Nonce   string
	Message *discordgo.MessageSend
}

// DailyPosts claims the subscribed channels where today's puzzle is not
// posted yet and returns their posts. A channel claimed here is not
// claimed by another instance until the claim lapses (dailyLease), so
// each is posted by one instance.
func (s *Service) DailyPosts(ctx context.Context) ([]DailyPost, error) {
	now := s.now()
	day := match.DayNumber(now)
	chans, err := s.db.ClaimDaily(ctx, day, now, dailyLease, dailyClaims)
	if err != nil || len(chans) == 0 {
		return nil, err
	}
	dd, err := s.dailyDay(ctx, day)
	if err != nil {
		return nil, err
	}
	var posts []DailyPost
	for _, c := range chans {
		posts = append(posts, DailyPost{ChannelID: c.ChannelID, GuildID: c.GuildID, Day: day, Solved: dd.solves,
			Nonce:   dailyNonce(c.ChannelID, day),
			Message: &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{dd.embed(locale.For(c.Locale))}, AllowedMentions: noMentions()}})
	}
	return posts, nil
}

// dailyDay is what a day's post shows, read once for all its channels.
type dailyDay struct {
	day                int64
	today, yesterday   engine.Puzzle
	yAttempts, ySolves int
	solves             int // today's, so far
}

// dailyDay reads day's puzzles and counts.
func (s *Service) dailyDay(ctx context.Context, day int64) (dailyDay, error) {
	d := dailyDay{day: day}
	start := time.Unix(day*86400, 0).UTC()
	var err error
	if d.today, err = match.DailyPuzzle(start); err != nil {
		return d, err
	}
	if d.yesterday, err = match.DailyPuzzle(start.AddDate(0, 0, -1)); err != nil {
		return d, err
	}
	if d.yAttempts, d.ySolves, err = s.db.PuzzleCounts(ctx, d.yesterday.ID); err != nil {
		return d, err
	}
	_, d.solves, err = s.db.PuzzleCounts(ctx, d.today.ID)
	return d, err
}

// embed is the day's post in lp's language.
func (dd dailyDay) embed(lp *locale.Printer) *discordgo.MessageEmbed {
	today, yesterday := dd.today, dd.yesterday
	var d []string
	d = append(d, puzzleBoard(lp, match.StartPuzzle(today)))
	d = append(d, lp.T("puzzle.task", "Count", today.Moves))
	d = append(d, lp.T("daily.solve", "DailyCommand", subName(subDaily)))
	d = append(d, lp.T("daily.solved_today", "Solved", dd.solves))
	var ans []string
	for i, m := range yesterday.Winning {
		if i == 3 {
			break
		}
		ans = append(ans, yesterday.Rules.FormatMove(yesterday.Start, m)+" ("+lp.Phrase(yesterday.Rules.DescribeMove(yesterday.Start, m))+")")
	}
	d = append(d, lp.T("daily.yesterday", "Moves", strings.Join(ans, ", ")))
	if d2 := solvedLine(lp, dd.yAttempts, dd.ySolves); d2 != "" {
		d = append(d, d2)
	}
	if h, err := yesterday.Rules.Hint(yesterday.Start); err == nil {
		d = append(d, explanation(h.Explanation, lp))
	}
	return &discordgo.MessageEmbed{
		Title:       lp.T("daily.title", "Date", time.Unix(dd.day*86400, 0).UTC().Format(time.DateOnly), "Theme", themeName(lp, today.Theme)),
		Description: truncate(strings.Join(d, "\n\n"), 4096),
		Color:       colourActive,
		Footer:      puzzleFooter(lp, today),
	}
}

// DailyEdit is an edit of a day's post with the running count of today's
// solves, for the bot to send by REST and then report with DailyEdited
// (or, when Discord refuses it for good, DailyEditGone).
type DailyEdit struct {
	Message match.DailyMessage // as it will show once edited
	Edit    *discordgo.MessageEdit
}

// DailyEdits claims today's posts due for an edit (at most once every
// dailyEditEvery each, across instances) and returns the edits of those
// whose count of solves changed; the others need none until their next
// turn.
func (s *Service) DailyEdits(ctx context.Context) ([]DailyEdit, error) {
	now := s.now()
	day := match.DayNumber(now)
	ms, err := s.db.ClaimDailyEdits(ctx, day, now, dailyEditEvery, dailyClaims)
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	dd, err := s.dailyDay(ctx, day)
	if err != nil {
		return nil, err
	}
	var edits []DailyEdit
	for _, m := range ms {
		if m.Solved == dd.solves {
			continue
		}
		m.Solved = dd.solves
		embeds := []*discordgo.MessageEmbed{dd.embed(locale.For(m.Locale))}
		edits = append(edits, DailyEdit{Message: m,
			Edit: &discordgo.MessageEdit{Channel: m.ChannelID, ID: m.MessageID, Embeds: &embeds, AllowedMentions: noMentions()}})
	}
	return edits, nil
}

// DailyEdited records that the edit is sent: the post shows its count.
func (s *Service) DailyEdited(ctx context.Context, e DailyEdit) error {
	return s.db.DailyEdited(ctx, e.Message)
}

// DailyEditGone stops the edits of a post Discord will not let nimbot
// edit (deleted, or access lost); the next day's post finds out whether
// the channel is gone for good.
func (s *Service) DailyEditGone(ctx context.Context, e DailyEdit) error {
	m := e.Message
	m.MessageID = ""
	return s.db.DailyEdited(ctx, m)
}

// dailyNonce is a post's nonce: Discord takes at most 25 characters.
func dailyNonce(channelID string, day int64) string {
	return truncate("d"+strconv.FormatInt(day, 36)+strconv.FormatUint(puzzleSeed(channelID), 36), 25)
}

// DailyDone records that p is posted as message messageID, whose edits
// start dailyEditEvery later.
func (s *Service) DailyDone(ctx context.Context, p DailyPost, messageID string) error {
	return s.db.DailyPosted(ctx, match.DailyMessage{ChannelID: p.ChannelID, Day: p.Day, MessageID: messageID, Solved: p.Solved},
		s.now().Add(dailyEditEvery))
}

// DailyGone unsubscribes a channel nimbot can no longer post in.
func (s *Service) DailyGone(ctx context.Context, channelID string) error {
	_, err := s.db.UnsubscribeDaily(ctx, channelID, "", nil)
	return err
}

// solvedLine says how many solved yesterday's puzzle of how many who tried
// it, none when nobody tried.
func solvedLine(lp *locale.Printer, attempts, solves int) string {
	if attempts == 0 {
		return ""
	}
	return lp.T("daily.solved", "Solved", solves, "Attempts", attempts)
}
