package terminal

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
	"nimbot/match"
)

// Config is what Play needs.
type Config struct {
	// Service answers the interactions, as it answers Discord's; main
	// builds it on the store (DATABASE_PATH), so a game started here can be
	// looked at on Discord and back. The terminal's pretend guild and
	// channel keep its games apart from real channels' in a shared file.
	Service *commands.Service
	// Now is the clock of the interactions' timestamps and ids (default
	// time.Now); the service has its own.
	Now func() time.Time
	// Lang is the language the player reads: the locale of every
	// interaction built, so boards, hints and errors come in it, as they do
	// for a Discord user with that language. "" is English; else one of
	// commands.Languages() (see Lang).
	Lang string
}

// Lang checks a language setting (the play -lang flag, NIMBOT_LANG) and
// returns the Discord locale the terminal's interactions carry: "" or
// "en" is English ("en-US"), else one of the shipped languages, spelled as
// Discord does ("de", "pt-BR"). Anything else is an error naming them, not
// a silent fallback to English.
func Lang(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == commands.English {
		return string(discordgo.EnglishUS), nil
	}
	for _, l := range commands.Languages() {
		if strings.EqualFold(s, l) {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown language %q: nimbot speaks %s", s, strings.Join(commands.Languages(), ", "))
}

// Play runs an interactive session: it reads typed commands from in, hands
// each to the commands service as the interaction Discord would send, and
// prints the responses to out. It returns nil at the end of input, on quit,
// or when ctx is done, and an error without a Service, with a language it
// does not speak, or when in could not be read to its end (a read error, or
// a line of maxInput bytes or more): the lines after it were never played,
// which must not pass for a session that ran to the end.
func Play(ctx context.Context, cfg Config, in io.Reader, out io.Writer) error {
	if cfg.Service == nil {
		return errors.New("terminal: no commands.Service to play against")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	lang, err := Lang(cfg.Lang)
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	// Cancelled on return, so the goroutine reading in stops too.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	s := &session{
		ctx:  ctx,
		svc:  cfg.Service,
		defs: commands.Definitions(),
		out:  out,
		in:   readLines(ctx, in),
		now:  cfg.Now,
		lang: lang,
		ids:  newIDs(cfg.Now),
		r: renderer{names: map[string]string{
			localPlayers[0].ID: localPlayers[0].Name,
			localPlayers[1].ID: localPlayers[1].Name,
			appID:              nimbotUser.Name,
			match.BotID:        nimbotUser.Name,
		}, now: cfg.Now, client: commands.ClientTextFor(lang)},
		messages: map[string]*discordgo.Message{},
	}
	return s.run()
}

// session is one terminal conversation with the service.
type session struct {
	ctx  context.Context
	svc  *commands.Service
	defs []*discordgo.ApplicationCommand
	out  io.Writer
	in   *input
	now  func() time.Time
	lang string // the interactions' locale (Lang)
	ids  *ids
	r    renderer

	me int // index into localPlayers of whoever is typing
	// board is the latest message that had components; typing a number
	// presses one of items.
	board    *discordgo.Message
	items    []item
	messages map[string]*discordgo.Message // every board-like message sent, by id
}

func (s *session) run() error {
	fmt.Fprintf(s.out, "nimbot in the terminal: the same bot as on Discord, in channel #terminal.\n")
	fmt.Fprintf(s.out, "You are @%s; /as 2 types as @%s. Type help for the commands, quit to leave.\n\n", localPlayers[0].Name, localPlayers[1].Name)
	s.resume()
	for {
		fmt.Fprintf(s.out, "%s> ", localPlayers[s.me].Name)
		line, ok := s.read()
		if !ok {
			fmt.Fprintln(s.out)
			return s.inputErr()
		}
		if !s.handle(line) {
			return nil
		}
	}
}

// read waits for the next line; false at the end of input or when the
// context is done.
func (s *session) read() (string, bool) {
	select {
	case <-s.ctx.Done():
		return "", false
	case l, ok := <-s.in.lines:
		return l, ok
	}
}

// inputErr is why the input ended, nil at its true end or when the context
// is done. Read only once read has said false.
func (s *session) inputErr() error {
	select {
	case <-s.in.done:
	default:
		return nil // the context is done and the reader may still be running
	}
	switch {
	case s.in.err == nil:
		return nil
	case errors.Is(s.in.err, bufio.ErrTooLong):
		return fmt.Errorf("terminal: stopped reading input at a line of %d bytes or more (a command fits in %d): that line and every line after it were not played", maxInput, maxLine)
	}
	return fmt.Errorf("terminal: stopped reading input: %w; the lines after the error were not played", s.in.err)
}

// handle answers one typed line; false means quit.
func (s *session) handle(line string) bool {
	t, err := parseLine(line, s.defs, localPlayers, nimbotUser)
	if err != nil {
		fmt.Fprintf(s.out, "! %v\n", err)
		return true
	}
	switch t.kind {
	case lineEmpty:
	case lineHelp:
		s.help()
	case lineQuit:
		fmt.Fprintln(s.out, "Bye. The game is saved; run play again to continue it.")
		return false
	case lineAs:
		s.me = t.player
		fmt.Fprintf(s.out, "Now typing as @%s.\n", localPlayers[s.me].Name)
	case linePress:
		s.press(t)
	case lineCommand:
		s.command(t)
	}
	return true
}

// resume shows the channel's game, if there is one, through /nim status:
// the same board a Discord user would get.
func (s *session) resume() {
	turn, err := s.svc.Turn(s.ctx, channelID)
	if err == nil && !turn.Game {
		fmt.Fprintf(s.out, "No game in this channel yet. Try: /nim start heaps:3 4 5   (against nimbot)\n")
		fmt.Fprintf(s.out, "                              or: /nim start vs:2 heaps:3 4 5   (against @%s, hot-seat)\n\n", localPlayers[1].Name)
		return
	}
	if err != nil {
		fmt.Fprintf(s.out, "! cannot read the channel's game: %v\n", err)
		return
	}
	// Sending it also passes the keyboard to whichever local player must
	// act (see followTurn).
	if findCommand(s.defs, "nim") == nil || findOption(findCommand(s.defs, "nim").Options, "status") == nil {
		return
	}
	fmt.Fprintln(s.out, "Continuing this channel's game:")
	t, err := parseLine("/nim status", s.defs, localPlayers, nimbotUser)
	if err == nil {
		s.command(t)
	}
}

func (s *session) localIndex(id string) int {
	for i, p := range localPlayers {
		if p.ID == id {
			return i
		}
	}
	return -1
}

func (s *session) help() {
	fmt.Fprintln(s.out, `Type a slash command as you would in Discord, options as name:value:
  /nim start heaps:3 4 5                      play nimbot (vs:bot says the same)
  /nim start vs:2 heaps:3 4 5 misere:true     challenge @player2 (hot-seat)
  /nim move heap:B take:2                     or /nim move notation:B2
  /nim hint level:3    /nim status    /nim resign
A number presses the board's button with that number ("4"); for a menu,
add the option's number ("5 2"). /as 1 or /as 2 switches who is typing.
help shows this, quit leaves (the game is saved in the database).`)
	if nim := findCommand(s.defs, "nim"); nim != nil {
		fmt.Fprintln(s.out, "All subcommands:")
		for _, o := range nim.Options {
			if o != nil && o.Type == discordgo.ApplicationCommandOptionSubCommand {
				fmt.Fprintf(s.out, "  %s\n", usage("/nim "+o.Name, o.Options))
			}
		}
	}
}

// command sends a typed slash command.
func (s *session) command(t typed) {
	options := t.options
	// "vs:bot" is the terminal's way of saying what Discord says by leaving
	// the opponent empty: play nimbot.
	options = dropBotOpponent(options)
	data := map[string]any{
		"id":      s.ids.next(),
		"name":    t.name,
		"type":    discordgo.ChatApplicationCommand,
		"options": options,
	}
	if len(t.users) > 0 {
		users, members := map[string]any{}, map[string]any{}
		for _, u := range t.users {
			users[u.ID] = userJSON(u)
			members[u.ID] = map[string]any{"roles": []string{}, "joined_at": "2025-01-01T00:00:00Z", "permissions": strconv.FormatInt(allPermissions, 10), "nick": nil}
		}
		data["resolved"] = map[string]any{"users": users, "members": members}
	}
	s.send(discordgo.InteractionApplicationCommand, data, nil)
}

// dropBotOpponent removes an opponent option naming nimbot.
func dropBotOpponent(opts []*discordgo.ApplicationCommandInteractionDataOption) []*discordgo.ApplicationCommandInteractionDataOption {
	var out []*discordgo.ApplicationCommandInteractionDataOption
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionUser && o.Value == nimbotUser.ID && o.Name == "opponent" {
			continue
		}
		c := *o
		c.Options = dropBotOpponent(o.Options)
		out = append(out, &c)
	}
	return out
}

// press sends the click on one of the board's components.
func (s *session) press(t typed) {
	if s.board == nil || len(s.items) == 0 {
		fmt.Fprintln(s.out, "! there are no buttons to press yet: start a game with /nim start, or show the board with /nim status")
		return
	}
	if t.press > len(s.items) {
		fmt.Fprintf(s.out, "! there is no button %d: the board's buttons are numbered 1 to %d\n", t.press, len(s.items))
		return
	}
	switch c := s.items[t.press-1].component.(type) {
	case *discordgo.Button:
		// Only a menu reads words after the number. Pressing anyway would
		// drop them unread, and the button may be Resign, which asks for no
		// confirmation: "4 2" meant as a menu pick must not end the game.
		if len(t.picks) > 0 {
			fmt.Fprintf(s.out, "! button %d (%s) takes nothing after its number, but %q followed it: type %d alone to press it. Nothing was pressed.\n",
				t.press, s.r.buttonLabel(c), clip(strings.Join(t.picks, " ")), t.press)
			return
		}
		if c.Disabled {
			fmt.Fprintf(s.out, "! button %d (%s) is disabled\n", t.press, s.r.buttonLabel(c))
			return
		}
		if c.Style == discordgo.LinkButton {
			fmt.Fprintf(s.out, "Button %d is a link: %s\n", t.press, c.URL)
			return
		}
		s.send(discordgo.InteractionMessageComponent, map[string]any{
			"custom_id":      c.CustomID,
			"component_type": discordgo.ButtonComponent,
		}, s.board)
	case *discordgo.SelectMenu:
		if c.Disabled {
			fmt.Fprintf(s.out, "! menu %d is disabled\n", t.press)
			return
		}
		values, ok := s.pick(c, t.picks)
		if !ok {
			return
		}
		menuType := discordgo.ComponentType(c.MenuType)
		if menuType == 0 {
			menuType = discordgo.SelectMenuComponent
		}
		data := map[string]any{"custom_id": c.CustomID, "component_type": menuType, "values": values}
		if menuType == discordgo.UserSelectMenuComponent || menuType == discordgo.MentionableSelectMenuComponent {
			users := map[string]any{}
			for _, v := range values {
				if who, ok := findPerson(v, localPlayers, nimbotUser); ok {
					users[who.ID] = userJSON(who)
				}
			}
			data["resolved"] = map[string]any{"users": users}
		}
		s.send(discordgo.InteractionMessageComponent, data, s.board)
	}
}

// pick reads a select menu's choice: typed after the number, or asked for.
func (s *session) pick(m *discordgo.SelectMenu, picks []string) ([]string, bool) {
	lo, hi := 1, max(m.MaxValues, 1)
	if m.MinValues != nil {
		lo = *m.MinValues
	}
	userMenu := m.MenuType == discordgo.UserSelectMenu || m.MenuType == discordgo.MentionableSelectMenu
	for {
		if len(picks) == 0 {
			if userMenu {
				fmt.Fprintf(s.out, "%s: pick a user: %s, or bot (/cancel to close the menu)\n", m.Placeholder, peopleList(localPlayers))
			} else {
				fmt.Fprintf(s.out, "%s: pick %s by number (/cancel to close the menu)\n", m.Placeholder, countWord(lo, hi))
				s.r.menuOptions(s.out, m)
			}
			fmt.Fprint(s.out, "pick> ")
			line, ok := s.read()
			if !ok || strings.TrimSpace(line) == "/cancel" {
				fmt.Fprintln(s.out, "(menu closed)")
				return nil, false
			}
			picks = strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' })
		}
		values, err := menuValues(m, picks, userMenu, lo, hi)
		if err == nil {
			return values, true
		}
		fmt.Fprintf(s.out, "! %v\n", err)
		picks = nil
	}
}

func menuValues(m *discordgo.SelectMenu, picks []string, userMenu bool, lo, hi int) ([]string, error) {
	if len(picks) < lo || len(picks) > hi {
		return nil, fmt.Errorf("pick %s", countWord(lo, hi))
	}
	var values []string
	for _, p := range picks {
		if userMenu {
			who, ok := findPerson(p, localPlayers, nimbotUser)
			if !ok {
				return nil, fmt.Errorf("no user %q: pick %s, or bot", clip(p), peopleList(localPlayers))
			}
			values = append(values, who.ID)
			continue
		}
		n, err := strconv.Atoi(p)
		if err == nil && n >= 1 && n <= len(m.Options) {
			values = append(values, m.Options[n-1].Value)
			continue
		}
		found := false
		for _, o := range m.Options {
			if strings.EqualFold(p, o.Value) || strings.EqualFold(p, o.Label) {
				values = append(values, o.Value)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%q is not one of the options 1 to %d", clip(p), len(m.Options))
		}
	}
	return values, nil
}

func countWord(lo, hi int) string {
	switch {
	case lo == hi && lo == 1:
		return "one option"
	case lo == hi:
		return fmt.Sprintf("%d options", lo)
	}
	return fmt.Sprintf("%d to %d options", lo, hi)
}

// send builds the interaction as the JSON Discord would send, lets
// discordgo decode it (so the service gets exactly the Go values it gets in
// production), hands it to the service and shows the response.
func (s *session) send(typ discordgo.InteractionType, data map[string]any, msg *discordgo.Message) {
	s.expire()
	me := localPlayers[s.me]
	env := map[string]any{
		"id":             s.ids.next(),
		"application_id": appID,
		"type":           typ,
		"data":           data,
		"guild_id":       guildID,
		"channel_id":     channelID,
		"channel":        map[string]any{"id": channelID, "type": discordgo.ChannelTypeGuildText, "guild_id": guildID, "name": "terminal"},
		"member": map[string]any{
			"user": userJSON(me), "roles": []string{}, "joined_at": "2025-01-01T00:00:00Z",
			"permissions": strconv.FormatInt(allPermissions, 10), "nick": nil, "deaf": false, "mute": false, "flags": 0,
		},
		"app_permissions":                strconv.FormatInt(allPermissions, 10),
		"locale":                         s.lang,
		"guild_locale":                   "en-US",
		"token":                          "terminal-" + s.ids.next(),
		"version":                        1,
		"context":                        discordgo.InteractionContextGuild,
		"authorizing_integration_owners": map[string]string{"0": guildID},
		"entitlements":                   []any{},
	}
	if msg != nil {
		env["message"] = msg
	}
	raw, err := json.Marshal(env)
	if err != nil {
		fmt.Fprintf(s.out, "! cannot build the interaction: %v\n", err)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		fmt.Fprintf(s.out, "! cannot decode the interaction: %v\n", err)
		return
	}
	resp, _, _ := s.svc.Handle(s.ctx, &i)
	s.show(&i, resp)
	s.followTurn()
}

// wireResponse is an InteractionResponse as it travels to Discord: decoding
// it back gives the components their concrete types whatever the service
// built them from.
type wireResponse struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data json.RawMessage                   `json:"data"`
}

type modalData struct {
	CustomID string `json:"custom_id"`
	Title    string `json:"title"`
}

// show prints the response as Discord would display it, and keeps the
// board's components for the next number typed.
func (s *session) show(i *discordgo.Interaction, resp *discordgo.InteractionResponse) {
	if resp == nil {
		fmt.Fprintln(s.out, "! the service gave no response (Discord would show \"The application did not respond\")")
		return
	}
	raw, err := json.Marshal(resp)
	if err != nil {
		fmt.Fprintf(s.out, "! the response cannot be sent to Discord: %v\n", err)
		return
	}
	var w wireResponse
	if err := json.Unmarshal(raw, &w); err != nil {
		fmt.Fprintf(s.out, "! the response cannot be read back: %v\n", err)
		return
	}
	var m discordgo.Message
	if len(w.Data) > 0 && string(w.Data) != "null" {
		if err := json.Unmarshal(w.Data, &m); err != nil {
			fmt.Fprintf(s.out, "! the response's message cannot be read: %v\n", err)
			return
		}
	}
	switch w.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		m.ID = s.ids.next()
		m.ChannelID, m.GuildID = channelID, guildID
		m.Author = &discordgo.User{ID: appID, Username: nimbotUser.Name, Bot: true}
		m.Timestamp = s.now()
		m.Type = discordgo.MessageTypeChatInputCommand
		if i.Type == discordgo.InteractionMessageComponent {
			m.Type = discordgo.MessageTypeDefault
		}
		eph := m.Flags&discordgo.MessageFlagsEphemeral != 0
		s.display(&m, eph, "nimbot")
		if !eph {
			// What bot does after fetching @original: let the service
			// record the new board's message id.
			if err := s.svc.BoardSent(s.ctx, i, &m); err != nil {
				fmt.Fprintf(s.out, "! the board could not be recorded: %v\n", err)
			}
		}
	case discordgo.InteractionResponseUpdateMessage:
		old := i.Message
		if old == nil {
			fmt.Fprintln(s.out, "! the service asked to update a message, but there is none (only a button press has one)")
			return
		}
		upd := *old
		upd.Content, upd.Embeds, upd.Components = m.Content, m.Embeds, m.Components
		upd.EditedTimestamp = ptr(s.now())
		s.display(&upd, upd.Flags&discordgo.MessageFlagsEphemeral != 0, "nimbot (board updated)")
	case discordgo.InteractionResponseModal:
		var md modalData
		json.Unmarshal(w.Data, &md)
		s.modal(i, md, m.Components)
	case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
		// The terminal has no follow-ups: a deferred answer never comes.
		fmt.Fprintln(s.out, "(nimbot deferred its answer; the terminal has no follow-ups)")
	case discordgo.InteractionResponsePong:
	default:
		fmt.Fprintf(s.out, "! unexpected response type %d\n", w.Type)
	}
}

// display prints m and, when it has components, makes it the board.
func (s *session) display(m *discordgo.Message, ephemeral bool, heading string) {
	items := s.r.message(s.out, m, ephemeral, heading)
	if m.ID != "" {
		s.messages[m.ID] = m
	}
	if len(items) > 0 || (s.board != nil && s.board.ID == m.ID) {
		s.board, s.items = m, items
	}
}

// modal asks for each text input on its own line and submits the form.
func (s *session) modal(i *discordgo.Interaction, md modalData, rows []discordgo.MessageComponent) {
	fmt.Fprintf(s.out, "--- %s (a form; type /cancel to close it) ---\n", s.r.text(md.Title))
	var answers []any
	for _, row := range rows {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		var inputs []any
		for _, c := range r.Components {
			in, ok := c.(*discordgo.TextInput)
			if !ok {
				continue
			}
			v, ok := s.ask(in)
			if !ok {
				fmt.Fprintln(s.out, "(form closed)")
				return
			}
			inputs = append(inputs, map[string]any{"type": discordgo.TextInputComponent, "custom_id": in.CustomID, "value": v})
		}
		answers = append(answers, map[string]any{"type": discordgo.ActionsRowComponent, "components": inputs})
	}
	s.send(discordgo.InteractionModalSubmit, map[string]any{"custom_id": md.CustomID, "components": answers}, i.Message)
}

// ask reads one text input, checking what Discord's form checks.
func (s *session) ask(in *discordgo.TextInput) (string, bool) {
	for {
		prompt := in.Label
		if in.Placeholder != "" {
			prompt += " (e.g. " + in.Placeholder + ")"
		}
		if !in.Required {
			prompt += " [optional, Enter to skip]"
		}
		fmt.Fprintf(s.out, "%s\nform> ", prompt)
		line, ok := s.read()
		if !ok || strings.TrimSpace(line) == "/cancel" {
			return "", false
		}
		v := strings.TrimSpace(line)
		if v == "" && in.Value != "" {
			v = in.Value
		}
		n := len([]rune(v))
		switch {
		case v == "" && in.Required:
			fmt.Fprintln(s.out, "! this field is required")
		case v != "" && in.MinLength > 0 && n < in.MinLength:
			fmt.Fprintf(s.out, "! at least %d characters\n", in.MinLength)
		case in.MaxLength > 0 && n > in.MaxLength:
			fmt.Fprintf(s.out, "! at most %d characters\n", in.MaxLength)
		default:
			return v, true
		}
	}
}

// expire runs the service's deadline sweep, as bot's scheduler does, and
// prints the board edits it asks for.
func (s *session) expire() {
	edits, err := s.svc.Expire(s.ctx)
	if err != nil {
		fmt.Fprintf(s.out, "! checking turn deadlines failed: %v\n", err)
		return
	}
	for _, e := range edits {
		if e == nil || e.Channel != channelID {
			continue
		}
		m := s.messages[e.ID]
		if m == nil {
			m = &discordgo.Message{ID: e.ID, ChannelID: channelID}
		}
		upd := *m
		if e.Content != nil {
			upd.Content = *e.Content
		}
		if e.Embeds != nil {
			upd.Embeds = *e.Embeds
		}
		if e.Components != nil {
			upd.Components = normalizeComponents(*e.Components)
		}
		s.display(&upd, false, "nimbot (board updated: time ran out)")
	}
}

// normalizeComponents gives components their decoded (pointer) types by a
// trip through JSON, as a REST edit would.
func normalizeComponents(cs []discordgo.MessageComponent) []discordgo.MessageComponent {
	raw, err := json.Marshal(map[string]any{"components": cs})
	if err != nil {
		return nil
	}
	var m discordgo.Message
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m.Components
}

// followTurn switches the keyboard to the local player whose turn it is, so
// a hot-seat game needs no /as between moves.
func (s *session) followTurn() {
	turn, err := s.svc.Turn(s.ctx, channelID)
	if err != nil || !turn.Game {
		return
	}
	i := s.localIndex(turn.UserID)
	if i < 0 || i == s.me {
		return
	}
	switch {
	case !turn.Challenge:
		s.me = i
		fmt.Fprintf(s.out, "(@%s to move: now typing as @%s)\n", localPlayers[i].Name, localPlayers[i].Name)
	case s.localIndex(turn.ChallengedBy) >= 0:
		// A challenge between the two local players is answered by the
		// one who did not make it.
		s.me = i
		fmt.Fprintf(s.out, "(@%s is challenged: now typing as @%s; /as 1 switches back)\n", localPlayers[i].Name, localPlayers[i].Name)
	}
}

func userJSON(p person) map[string]any {
	return map[string]any{
		"id": p.ID, "username": p.Name, "global_name": p.Name, "discriminator": "0",
		"avatar": nil, "bot": p.Bot, "public_flags": 0,
	}
}

func ptr[T any](v T) *T { return &v }

// maxInput bounds a line read from the input, far past maxLine so that an
// overlong command is still read and refused by parseLine with its length.
const maxInput = 1 << 20

// input is the typed lines, fed from a reader by a goroutine so a read can
// give way to ctx.
type input struct {
	lines <-chan string
	// done is closed when the reader stops, after err is set: err is why
	// it stopped before the end of the input (the scanner's error), nil at
	// the end or when ctx is done.
	done chan struct{}
	err  error
}

func readLines(ctx context.Context, in io.Reader) *input {
	ch := make(chan string)
	i := &input{lines: ch, done: make(chan struct{})}
	go func() {
		defer close(ch)
		defer close(i.done)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64*1024), maxInput)
		for sc.Scan() {
			select {
			case ch <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		i.err = sc.Err()
	}()
	return i
}

// ids hands out snowflake-like ids. The low bits start at a random offset
// so two sessions on one database (or a test's frozen clock) do not reuse an
// interaction id, which the store would take for a redelivery.
type ids struct {
	now func() time.Time
	seq uint64
}

func newIDs(now func() time.Time) *ids {
	var b [8]byte
	rand.Read(b[:])
	return &ids{now: now, seq: binary.LittleEndian.Uint64(b[:])}
}

func (g *ids) next() string {
	g.seq++
	ms := uint64(max(g.now().UnixMilli()-discordEpoch, 0))
	return strconv.FormatUint(ms<<22|g.seq&(1<<22-1), 10)
}
