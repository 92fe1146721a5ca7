package main

import (
	"encoding/json"
)

// The payloads are Discord's interactions as its documentation shows them,
// built as structs and maps and encoded by encoding/json. A click carries
// the board message it was made on: the answer's content, components and
// embeds as received, in a message as Discord would attach it.

// user is a Discord user object for id.
func user(id string) map[string]any {
	short := id[max(0, len(id)-4):]
	return map[string]any{"id": id, "username": "player" + short, "global_name": "Player " + short, "discriminator": "0", "avatar": nil, "public_flags": 0}
}

// interaction is an interaction as Discord sends it to an endpoint.
type interaction struct {
	AppPermissions string          `json:"app_permissions"`
	AppID          string          `json:"application_id"`
	Channel        map[string]any  `json:"channel"`
	ChannelID      string          `json:"channel_id"`
	Context        int             `json:"context"`
	Data           any             `json:"data"`
	Entitlements   []any           `json:"entitlements"`
	GuildID        string          `json:"guild_id"`
	GuildLocale    string          `json:"guild_locale"`
	ID             string          `json:"id"`
	Locale         string          `json:"locale"`
	Member         map[string]any  `json:"member"`
	Message        json.RawMessage `json:"message,omitempty"`
	Token          string          `json:"token"`
	Type           int             `json:"type"`
	Version        int             `json:"version"`
}

// interaction returns the fields every interaction of the channel has, for
// who, of type typ.
func (p *player) interaction(who string, typ int, id, token string, data any) interaction {
	return interaction{
		AppPermissions: "562949953601536", AppID: appID,
		Channel:   map[string]any{"id": p.channel, "guild_id": p.guild, "name": "nim-games", "type": 0, "flags": 0, "permissions": "2248473465835073"},
		ChannelID: p.channel, Data: data, Entitlements: []any{}, GuildID: p.guild, GuildLocale: "en-US",
		ID: id, Locale: "en-US", Token: token, Type: typ, Version: 1,
		Member: map[string]any{"user": user(who), "roles": []string{}, "joined_at": "2024-05-01T12:00:00.000000+00:00",
			"permissions": "2248473465835073", "deaf": false, "mute": false, "flags": 0, "pending": false},
	}
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
			"users":   map[string]any{resolved: user(resolved)},
			"members": map[string]any{resolved: map[string]any{"roles": []string{}, "joined_at": "2024-05-01T12:00:00.000000+00:00", "permissions": "2248473465835073", "flags": 0}},
		}
	}
	body, _ := json.Marshal(p.interaction(who, 2, id, token, data))
	return body
}

// clickJSON is a MESSAGE_COMPONENT on board b: a button, or a select menu
// with one value.
func (p *player) clickJSON(who, customID, value, id, token string, b *board) []byte {
	data := map[string]any{"component_type": 2, "custom_id": customID}
	if value != "" {
		data["component_type"] = 3
		data["values"] = []string{value}
	}
	in := p.interaction(who, 3, id, token, data)
	in.Message = b.message(p.channel)
	body, _ := json.Marshal(in)
	return body
}

// message is the board as Discord attaches it to a click, built once.
func (b *board) message(channel string) json.RawMessage {
	if b.msg == nil {
		b.msg, _ = json.Marshal(map[string]any{
			"id": b.msgID, "channel_id": channel, "application_id": appID, "type": 20,
			"author":  map[string]any{"id": appID, "username": "nimbot", "discriminator": "0000", "bot": true, "avatar": nil},
			"content": b.content, "components": rawOrNull(b.components), "embeds": rawOrNull(b.embeds),
			"attachments": []any{}, "mentions": []any{}, "mention_roles": []any{}, "pinned": false, "tts": false,
			"timestamp": "2026-01-01T12:00:00.000000+00:00", "edited_timestamp": nil, "flags": 0,
		})
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
