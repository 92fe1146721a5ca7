package main

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The payloads are appended as bytes, field by field, in the order and form
// encoding/json gave them when they were built from maps and structs (keys
// sorted, HTML characters escaped): the same JSON, without reflection. The
// board message a click carries is spliced from the answer as received,
// not decoded and encoded again. TestPayloads compares every kind of
// payload with that construction.

// tsRoom is the room left before a payload for the signature timestamp:
// Ed25519 signs timestamp+body, and send writes the timestamp there and
// signs the one slice instead of copying the body behind it. Unix seconds
// have ten digits until 2286; send copies when they do not fit.
const tsRoom = 10

// Fragments every interaction of a run shares.
const (
	// member's fields before its user, in key order.
	memberHead = `{"deaf":false,"flags":0,"joined_at":"2024-05-01T12:00:00.000000+00:00","mute":false,"pending":false,"permissions":"2248473465835073","roles":[],"user":`
	// msgAuthor is the board message's fields up to its channel_id.
	msgAuthor = `{"application_id":"` + appID + `","attachments":[],"author":{"avatar":null,"bot":true,"discriminator":"0000","id":"` + appID + `","username":"nimbot"},"channel_id":`
)

// appendString appends s as encoding/json encodes a string: quoted, with
// <, > and & escaped. Plain ASCII, the usual case, is copied as is;
// anything else goes through encoding/json, so the two cannot differ.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendUser is user(id) as encoding/json encoded its map.
func appendUser(b []byte, id string) []byte {
	short := id[max(0, len(id)-4):]
	b = append(b, `{"avatar":null,"discriminator":"0","global_name":`...)
	b = appendString(b, "Player "+short)
	b = append(b, `,"id":`...)
	b = appendString(b, id)
	b = append(b, `,"public_flags":0,"username":`...)
	b = appendString(b, "player"+short)
	return append(b, '}')
}

// interactionJSON appends the whole interaction to b[:tsRoom] (b may be
// nil): the fields both kinds share around data (and the board message,
// for a click: board's, as messageJSON gives it), in the order of the old
// interaction struct's fields. The result starts after tsRoom bytes of
// room for the timestamp.
func (p *player) interactionJSON(b []byte, who string, typ int, id, token string, data []byte, board *board) []byte {
	if cap(b) < tsRoom {
		b = make([]byte, tsRoom, 4096)
	}
	b = b[:tsRoom]
	b = append(b, `{"app_permissions":"562949953601536","application_id":"`+appID+`","channel":{"flags":0,"guild_id":`...)
	b = appendString(b, p.guild)
	b = append(b, `,"id":`...)
	b = appendString(b, p.channel)
	b = append(b, `,"name":"nim-games","permissions":"2248473465835073","type":0},"channel_id":`...)
	b = appendString(b, p.channel)
	b = append(b, `,"context":0,"data":`...)
	b = append(b, data...)
	b = append(b, `,"entitlements":[],"guild_id":`...)
	b = appendString(b, p.guild)
	b = append(b, `,"guild_locale":"en-US","id":`...)
	b = appendString(b, id)
	b = append(b, `,"locale":"en-US","member":`+memberHead...)
	b = appendUser(b, who)
	b = append(b, '}')
	if board != nil {
		b = append(b, `,"message":`...)
		b = board.appendMessage(b, p.channel)
	}
	b = append(b, `,"token":`...)
	b = appendString(b, token)
	b = append(b, `,"type":`...)
	b = strconv.AppendInt(b, int64(typ), 10)
	return append(b, `,"version":1}`...)
}

// option is one option of a slash command: name, type, value.
type option struct {
	name  string
	typ   int
	value string
}

// commandData appends the data of /nim sub with opts; resolved, if not "",
// is the user (an option's value) whose user and member objects Discord
// resolves.
func commandData(b []byte, sub string, opts []option, resolved string) []byte {
	b = append(b, `{"id":"1300000000000000001","name":"nim","options":[{"name":`...)
	b = appendString(b, sub)
	b = append(b, `,"options":[`...)
	for i, o := range opts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendString(b, o.name)
		b = append(b, `,"type":`...)
		b = strconv.AppendInt(b, int64(o.typ), 10)
		b = append(b, `,"value":`...)
		b = appendString(b, o.value)
		b = append(b, '}')
	}
	b = append(b, `],"type":1}]`...)
	if resolved != "" {
		b = append(b, `,"resolved":{"members":{`...)
		b = appendString(b, resolved)
		b = append(b, `:{"flags":0,"joined_at":"2024-05-01T12:00:00.000000+00:00","permissions":"2248473465835073","roles":[]}},"users":{`...)
		b = appendString(b, resolved)
		b = append(b, ':')
		b = appendUser(b, resolved)
		b = append(b, `}}`...)
	}
	return append(b, `,"type":1}`...)
}

// clickData appends the data of a click: a button, or a select menu with
// one value.
func clickData(b []byte, customID, value string) []byte {
	if value == "" {
		b = append(b, `{"component_type":2,"custom_id":`...)
		b = appendString(b, customID)
		return append(b, '}')
	}
	b = append(b, `{"component_type":3,"custom_id":`...)
	b = appendString(b, customID)
	b = append(b, `,"values":[`...)
	b = appendString(b, value)
	return append(b, `]}`...)
}

// messageJSON is the board as Discord attaches it to a click, with its
// content, components and embeds as the answer carried them (JSON null
// where the answer had none).
func (b *board) messageJSON(channel string) []byte {
	return b.appendMessage(make([]byte, 0, len(msgAuthor)+len(b.content)+len(b.components)+len(b.embeds)+300), channel)
}

// appendMessage appends messageJSON's message to out.
func (b *board) appendMessage(out []byte, channel string) []byte {
	if b.msg != nil {
		return append(out, b.msg...)
	}
	out = append(out, msgAuthor...)
	out = appendString(out, channel)
	out = append(out, `,"components":`...)
	out = appendRaw(out, b.components)
	out = append(out, `,"content":`...)
	if len(b.content) > 0 && b.content[0] == '"' {
		out = append(out, b.content...)
	} else {
		out = append(out, `""`...) // absent or null: the empty string
	}
	out = append(out, `,"edited_timestamp":null,"embeds":`...)
	out = appendRaw(out, b.embeds)
	out = append(out, `,"flags":0,"id":`...)
	out = appendString(out, b.msgID)
	return append(out, `,"mention_roles":[],"mentions":[],"pinned":false,"timestamp":"2026-01-01T12:00:00.000000+00:00","tts":false,"type":20}`...)
}

func appendRaw(b, raw []byte) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}
