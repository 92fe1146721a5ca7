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
	"nimbot/engine"
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
		w:    newWords(lang),
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
	w    words  // the terminal's own words, in lang
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
	fmt.Fprintln(s.out, s.w.t("welcome"))
	fmt.Fprintf(s.out, "%s\n\n", s.w.t("welcome.you", "Me", localPlayers[0].Name, "Other", localPlayers[1].Name))
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
	t, err := s.w.parseLine(line, s.defs, localPlayers, nimbotUser)
	if err != nil {
		fmt.Fprintf(s.out, "! %v\n", err)
		return true
	}
	switch t.kind {
	case lineEmpty:
	case lineHelp:
		s.help()
	case lineQuit:
		fmt.Fprintln(s.out, s.w.t("bye"))
		return false
	case lineAs:
		s.me = t.player
		fmt.Fprintln(s.out, s.w.t("as", "Player", localPlayers[s.me].Name))
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
		first := s.w.t("no_game", "Bot", s.w.example(s.defs, "start", "heaps", "3 4 5"))
		or := s.w.t("no_game.or", "Player", s.w.example(s.defs, "start", "opponent", "2", "heaps", "3 4 5"), "Other", localPlayers[1].Name)
		// "or:" stands under the first example's command.
		pad := max(0, engine.DisplayWidth(first[:max(0, strings.Index(first, "/"))])-engine.DisplayWidth(or[:max(0, strings.Index(or, "/"))]))
		fmt.Fprintf(s.out, "%s\n%s%s\n\n", first, strings.Repeat(" ", pad), or)
		return
	}
	if err != nil {
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.turn", "Err", err.Error()))
		return
	}
	// Sending it also passes the keyboard to whichever local player must
	// act (see followTurn).
	if findCommand(s.defs, "nim") == nil || findOption(findCommand(s.defs, "nim").Options, "status") == nil {
		return
	}
	fmt.Fprintln(s.out, s.w.t("resume"))
	t, err := s.w.parseLine("/nim status", s.defs, localPlayers, nimbotUser)
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
	w, defs := s.w, s.defs
	fmt.Fprintln(s.out, w.t("help.intro"))
	opponent := "opponent"
	if nim := findCommand(defs, "nim"); nim != nil {
		if start := findOption(nim.Options, "start"); start != nil {
			if o := findOption(start.Options, "opponent"); o != nil {
				opponent = w.option(o)
			}
		}
	}
	rows := [][2]string{
		{w.example(defs, "start", "heaps", "3 4 5"), w.t("help.vs_bot", "Option", opponent)},
		{w.example(defs, "start", "opponent", "2", "heaps", "3 4 5", "misere", w.t("bool.true")), w.t("help.challenge", "Player", localPlayers[1].Name)},
		{w.example(defs, "move", "heap", "B", "take", "2"), w.t("help.or", "Command", w.example(defs, "move", "notation", "B2"))},
	}
	width := 0
	for _, row := range rows {
		width = max(width, engine.DisplayWidth(row[0]))
	}
	for _, row := range rows {
		if row[0] != "" {
			fmt.Fprintf(s.out, "  %s%s%s\n", row[0], strings.Repeat(" ", width+5-engine.DisplayWidth(row[0])), row[1])
		}
	}
	fmt.Fprintf(s.out, "  %s    %s    %s\n", w.example(defs, "hint", "level", "3"), w.example(defs, "status"), w.example(defs, "resign"))
	fmt.Fprintln(s.out, w.t("help.keys"))
	if nim := findCommand(defs, "nim"); nim != nil {
		fmt.Fprintln(s.out, w.t("help.all"))
		for _, o := range nim.Options {
			if o != nil && o.Type == discordgo.ApplicationCommandOptionSubCommand {
				fmt.Fprintf(s.out, "  %s\n", w.usage("/"+w.command(nim)+" "+w.option(o), o.Options))
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
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.no_buttons", "Start", s.w.example(s.defs, "start"), "Status", s.w.example(s.defs, "status")))
		return
	}
	if t.press > len(s.items) {
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.no_button", "N", t.press, "Max", len(s.items)))
		return
	}
	switch c := s.items[t.press-1].component.(type) {
	case *discordgo.Button:
		// Only a menu reads words after the number. Pressing anyway would
		// drop them unread, and the button may be Resign, which asks for no
		// confirmation: "4 2" meant as a menu pick must not end the game.
		if len(t.picks) > 0 {
			fmt.Fprintf(s.out, "! %s\n", s.w.t("err.button_picks", "N", t.press, "Label", s.r.buttonLabel(c), "Text", strconv.Quote(clip(strings.Join(t.picks, " ")))))
			return
		}
		if c.Disabled {
			fmt.Fprintf(s.out, "! %s\n", s.w.t("err.button_disabled", "N", t.press, "Label", s.r.buttonLabel(c)))
			return
		}
		if c.Style == discordgo.LinkButton {
			fmt.Fprintln(s.out, s.w.t("link", "N", t.press, "URL", c.URL))
			return
		}
		s.send(discordgo.InteractionMessageComponent, map[string]any{
			"custom_id":      c.CustomID,
			"component_type": discordgo.ButtonComponent,
		}, s.board)
	case *discordgo.SelectMenu:
		if c.Disabled {
			fmt.Fprintf(s.out, "! %s\n", s.w.t("err.menu_disabled", "N", t.press))
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
				fmt.Fprintln(s.out, s.w.t("pick.user", "Menu", m.Placeholder, "People", peopleList(localPlayers)))
			} else {
				fmt.Fprintln(s.out, s.w.t("pick.options", "Menu", m.Placeholder, "What", s.w.countWord(lo, hi)))
				s.r.menuOptions(s.out, m)
			}
			fmt.Fprint(s.out, s.w.t("prompt.pick")+"> ")
			line, ok := s.read()
			if !ok || strings.TrimSpace(line) == "/cancel" {
				fmt.Fprintln(s.out, s.w.t("menu.closed"))
				return nil, false
			}
			picks = strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' })
		}
		values, err := s.w.menuValues(m, picks, userMenu, lo, hi)
		if err == nil {
			return values, true
		}
		fmt.Fprintf(s.out, "! %v\n", err)
		picks = nil
	}
}

func (w words) menuValues(m *discordgo.SelectMenu, picks []string, userMenu bool, lo, hi int) ([]string, error) {
	if len(picks) < lo || len(picks) > hi {
		return nil, w.err("err.pick", "What", w.countWord(lo, hi))
	}
	var values []string
	for _, p := range picks {
		if userMenu {
			who, ok := findPerson(p, localPlayers, nimbotUser)
			if !ok {
				return nil, w.err("err.no_user_pick", "Text", strconv.Quote(clip(p)), "People", peopleList(localPlayers))
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
			return nil, w.err("err.not_menu_option", "Text", strconv.Quote(clip(p)), "Max", len(m.Options))
		}
	}
	return values, nil
}

func (w words) countWord(lo, hi int) string {
	if lo == hi {
		return w.t("count.exact", "Count", lo)
	}
	return w.t("count.range", "Min", lo, "Max", hi)
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
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.build", "Err", err.Error()))
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.decode", "Err", err.Error()))
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
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.no_response"))
		return
	}
	raw, err := json.Marshal(resp)
	if err != nil {
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.send", "Err", err.Error()))
		return
	}
	var w wireResponse
	if err := json.Unmarshal(raw, &w); err != nil {
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.read_back", "Err", err.Error()))
		return
	}
	var m discordgo.Message
	if len(w.Data) > 0 && string(w.Data) != "null" {
		if err := json.Unmarshal(w.Data, &m); err != nil {
			fmt.Fprintf(s.out, "! %s\n", s.w.t("err.read_message", "Err", err.Error()))
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
				fmt.Fprintf(s.out, "! %s\n", s.w.t("err.board_record", "Err", err.Error()))
			}
		}
	case discordgo.InteractionResponseUpdateMessage:
		old := i.Message
		if old == nil {
			fmt.Fprintf(s.out, "! %s\n", s.w.t("err.no_message"))
			return
		}
		upd := *old
		upd.Content, upd.Embeds, upd.Components = m.Content, m.Embeds, m.Components
		upd.EditedTimestamp = ptr(s.now())
		s.display(&upd, upd.Flags&discordgo.MessageFlagsEphemeral != 0, s.w.t("heading.updated"))
	case discordgo.InteractionResponseModal:
		var md modalData
		json.Unmarshal(w.Data, &md)
		s.modal(i, md, m.Components)
	case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
		// The terminal has no follow-ups: a deferred answer never comes.
		fmt.Fprintln(s.out, s.w.t("deferred"))
	case discordgo.InteractionResponsePong:
	default:
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.response_type", "Type", strconv.Itoa(int(w.Type))))
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
	fmt.Fprintln(s.out, s.w.t("form", "Title", s.r.text(md.Title)))
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
				fmt.Fprintln(s.out, s.w.t("form.closed"))
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
			prompt += " " + s.w.t("form.example", "Example", in.Placeholder)
		}
		if !in.Required {
			prompt += " " + s.w.t("form.optional")
		}
		fmt.Fprintf(s.out, "%s\n%s> ", prompt, s.w.t("prompt.form"))
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
			fmt.Fprintf(s.out, "! %s\n", s.w.t("err.required"))
		case v != "" && in.MinLength > 0 && n < in.MinLength:
			fmt.Fprintf(s.out, "! %s\n", s.w.t("err.text_min", "Count", in.MinLength))
		case in.MaxLength > 0 && n > in.MaxLength:
			fmt.Fprintf(s.out, "! %s\n", s.w.t("err.text_max", "Count", in.MaxLength))
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
		fmt.Fprintf(s.out, "! %s\n", s.w.t("err.expire", "Err", err.Error()))
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
		s.display(&upd, false, s.w.t("heading.expired"))
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
		fmt.Fprintln(s.out, s.w.t("turn", "Player", localPlayers[i].Name))
	case s.localIndex(turn.ChallengedBy) >= 0:
		// A challenge between the two local players is answered by the
		// one who did not make it.
		s.me = i
		fmt.Fprintln(s.out, s.w.t("challenged", "Player", localPlayers[i].Name))
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
