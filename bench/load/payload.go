package main

import (
	"encoding/json"
	"strconv"
)

// The payloads are Discord's interactions as its documentation shows them,
// built as structs and maps and encoded by encoding/json. A click carries
// the board message it was made on: the answer's content, components and
// embeds as received, in a message as Discord would attach it.

// The load generator shares the cores with the server it measures, so it
// encodes little per request: the fields a channel's interactions share
// once per person (head), the board message once per board, and the
// objects every click carries are structs rather than maps (encoding/json
// sorts a map's keys on every call).

// user is a Discord user object.
type user struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	GlobalName    string  `json:"global_name"`
	Discriminator string  `json:"discriminator"`
	Avatar        *string `json:"avatar"`
	PublicFlags   int     `json:"public_flags"`
}

// userFor is the user object of id.
func userFor(id string) user {
	short := id[max(0, len(id)-4):]
	return user{ID: id, Username: "player" + short, GlobalName: "Player " + short, Discriminator: "0"}
}

// channel is a partial channel object, as an interaction carries it.
type channel struct {
	ID          string `json:"id"`
	GuildID     string `json:"guild_id"`
	Name        string `json:"name"`
	Type        int    `json:"type"`
	Flags       int    `json:"flags"`
	Permissions string `json:"permissions"`
}

// member is a guild member object, as an interaction carries its invoker.
type member struct {
	User        user     `json:"user"`
	Roles       []string `json:"roles"`
	JoinedAt    string   `json:"joined_at"`
	Permissions string   `json:"permissions"`
	Deaf        bool     `json:"deaf"`
	Mute        bool     `json:"mute"`
	Flags       int      `json:"flags"`
	Pending     bool     `json:"pending"`
}

// interaction is an interaction as Discord sends it to an endpoint, but
// for the fields of each request (type, id, token, data, and the message a
// click carries), which body adds.
type interaction struct {
	AppPermissions string  `json:"app_permissions"`
	AppID          string  `json:"application_id"`
	Channel        channel `json:"channel"`
	ChannelID      string  `json:"channel_id"`
	Context        int     `json:"context"`
	Entitlements   []any   `json:"entitlements"`
	GuildID        string  `json:"guild_id"`
	GuildLocale    string  `json:"guild_locale"`
	Locale         string  `json:"locale"`
	Member         member  `json:"member"`
	Version        int     `json:"version"`
}

// head is the JSON of the fields every interaction of the channel by who
// carries, as an object left open for body to finish: encoded once for
// each of the channel's people (the generator shares the cores with the
// server it measures).
func (p *player) head(who string) []byte {
	for _, h := range p.heads {
		if h.who == who {
			return h.json
		}
	}
	b, _ := json.Marshal(interaction{
		AppPermissions: "562949953601536", AppID: appID,
		Channel:   channel{ID: p.channel, GuildID: p.guild, Name: "nim-games", Permissions: "2248473465835073"},
		ChannelID: p.channel, Entitlements: []any{}, GuildID: p.guild, GuildLocale: "en-US",
		Locale: "en-US", Version: 1,
		Member: member{User: userFor(who), Roles: []string{}, JoinedAt: "2024-05-01T12:00:00.000000+00:00",
			Permissions: "2248473465835073"},
	})
	h := encodedHead{who: who, json: b[:len(b)-1]}
	p.heads[1], p.heads[0] = p.heads[0], h // the channel's two people, or its last two
	return h.json
}

// encodedHead is head's JSON for one person.
type encodedHead struct {
	who  string
	json []byte
}

// body is an interaction of type typ by who: head's fields, then id and
// token (snowflakes and "load."-prefixed ones: nothing to escape), data,
// and msg, the message a click carries (nil for none).
func (p *player) body(who string, typ int, id, token string, data any, msg json.RawMessage) []byte {
	d, _ := json.Marshal(data)
	h := p.head(who)
	out := make([]byte, 0, len(h)+len(d)+len(msg)+len(id)+len(token)+64)
	out = append(out, h...)
	out = append(out, `,"type":`...)
	out = strconv.AppendInt(out, int64(typ), 10)
	out = append(out, `,"id":"`...)
	out = append(out, id...)
	out = append(out, `","token":"`...)
	out = append(out, token...)
	out = append(out, `","data":`...)
	out = append(out, d...)
	if msg != nil {
		out = append(out, `,"message":`...)
		out = append(out, msg...)
	}
	return append(out, '}')
}

// option is one option of a slash command: name, type, value.
type option struct {
	name  string
	typ   int
	value string
}

// commandJSON is an APPLICATION_COMMAND for /nim sub with opts; resolved,
// if not "", is the user (an option's value) whose user and member objects
// Discord resolves.
func (p *player) commandJSON(who, sub string, opts []option, resolved, id, token string) []byte {
	os := []map[string]any{}
	for _, o := range opts {
		os = append(os, map[string]any{"name": o.name, "type": o.typ, "value": o.value})
	}
	data := map[string]any{"id": "1300000000000000001", "name": "nim", "type": 1,
		"options": []map[string]any{{"name": sub, "type": 1, "options": os}}}
	if resolved != "" {
		data["resolved"] = map[string]any{
			"users":   map[string]any{resolved: userFor(resolved)},
			"members": map[string]any{resolved: map[string]any{"roles": []string{}, "joined_at": "2024-05-01T12:00:00.000000+00:00", "permissions": "2248473465835073", "flags": 0}},
		}
	}
	return p.body(who, 2, id, token, data, nil)
}

// clickJSON is a MESSAGE_COMPONENT on board b: a button, or a select menu
// with one value.
func (p *player) clickJSON(who, customID, value, id, token string, b *board) []byte {
	data := componentData{ComponentType: 2, CustomID: customID}
	if value != "" {
		data.ComponentType = 3
		data.Values = []string{value}
	}
	return p.body(who, 3, id, token, data, b.message(p.channel))
}

// componentData is a MESSAGE_COMPONENT's data: the control clicked, and
// the value chosen in a select menu.
type componentData struct {
	ComponentType int      `json:"component_type"`
	CustomID      string   `json:"custom_id"`
	Values        []string `json:"values,omitempty"`
}

// message is a message object, as Discord attaches the clicked one to a
// click, but for its content, components and embeds, which board.message
// adds as received.
type message struct {
	ID              string  `json:"id"`
	ChannelID       string  `json:"channel_id"`
	ApplicationID   string  `json:"application_id"`
	Type            int     `json:"type"`
	Author          author  `json:"author"`
	Attachments     []any   `json:"attachments"`
	Mentions        []any   `json:"mentions"`
	MentionRoles    []any   `json:"mention_roles"`
	Pinned          bool    `json:"pinned"`
	TTS             bool    `json:"tts"`
	Timestamp       string  `json:"timestamp"`
	EditedTimestamp *string `json:"edited_timestamp"`
	Flags           int     `json:"flags"`
}

// author is the bot's user object, as the author of its messages.
type author struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	Discriminator string  `json:"discriminator"`
	Bot           bool    `json:"bot"`
	Avatar        *string `json:"avatar"`
}

// message is the board as Discord attaches it to a click, built once: the
// answer's components and embeds go in as received, not compacted again by
// Marshal.
func (b *board) message(channel string) json.RawMessage {
	if b.msg == nil {
		head, _ := json.Marshal(message{
			ID: b.msgID, ChannelID: channel, ApplicationID: appID, Type: 20,
			Author:      author{ID: appID, Username: "nimbot", Discriminator: "0000", Bot: true},
			Attachments: []any{}, Mentions: []any{}, MentionRoles: []any{},
			Timestamp: "2026-01-01T12:00:00.000000+00:00",
		})
		content, _ := json.Marshal(b.content)
		components, embeds := rawOrNull(b.components), rawOrNull(b.embeds)
		msg := make([]byte, 0, len(head)+len(content)+len(components)+len(embeds)+48)
		msg = append(msg, head[:len(head)-1]...)
		msg = append(msg, `,"content":`...)
		msg = append(msg, content...)
		msg = append(msg, `,"components":`...)
		msg = append(msg, components...)
		msg = append(msg, `,"embeds":`...)
		msg = append(msg, embeds...)
		b.msg = append(msg, '}')
	}
	return b.msg
}

// rawOrNull is raw, or JSON null where the answer had no such field.
func rawOrNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// answer is an InteractionResponse as the client reads it.
type answer struct {
	Type int         `json:"type"`
	Data *answerData `json:"data"`
}

// answerData is the part of an answer's data (an InteractionResponseData,
// or the message bot sends after a deferral) the client reads. Components
// and embeds stay as received, for the next click's board message.
type answerData struct {
	Flags      int             `json:"flags"`
	Content    string          `json:"content"`
	Components json.RawMessage `json:"components"`
	Embeds     json.RawMessage `json:"embeds"`
}

// component is one component of an answer, and the components it holds.
type component struct {
	Type     int    `json:"type"`
	CustomID string `json:"custom_id"`
	Disabled bool   `json:"disabled"`
	Options  []struct {
		Value string `json:"value"`
	} `json:"options"`
	Components []component `json:"components"`
}

// components reads the answer's components.
func (d *answerData) components() ([]component, error) {
	var cs []component
	if len(d.Components) == 0 {
		return nil, nil
	}
	err := json.Unmarshal(d.Components, &cs)
	return cs, err
}
