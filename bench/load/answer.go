package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The client reads a handful of fields of each answer: its type, and of its
// data the flags, the content, and the custom_id, type, disabled flag and
// option values of each component. decodeAnswer reads those in one pass
// over the bytes, without reflection, and keeps content, components and
// embeds as the raw JSON they were, to splice into the next click's board
// message. It checks what json.Unmarshal into the client's structs
// checked: the whole answer is valid JSON, and the fields read have the
// types those structs gave them (null leaves a field empty). Keys match
// without regard to case, as json.Unmarshal matches them.

// answerData is the part of an answer's data (an InteractionResponseData,
// or a message after a deferral) the client reads.
type answerData struct {
	flags      int
	content    []byte // the raw JSON string, or nil (absent or null)
	components []byte // raw JSON, or nil if absent
	embeds     []byte // raw JSON, or nil if absent
	// comps are the components read; compErr is a wrong type inside them,
	// reported only where the client looks at the components (an
	// ephemeral answer's are not looked at).
	comps   []component
	compErr error
}

// text is the content as a Go string.
func (d *answerData) text() string {
	s, _ := jsonString(d.content)
	return s
}

// component is one component of an answer, and the components it holds.
type component struct {
	typ        int
	customID   string
	disabled   bool
	options    []string // the values of a select menu's options
	components []component
}

// decodeAnswer reads an InteractionResponse: its type and its data (nil if
// absent or null).
func decodeAnswer(body []byte) (typ int, data *answerData, err error) {
	d := reader{b: body}
	d.object(func(key []byte) {
		switch {
		case keyIs(key, "type"):
			typ = d.int()
		case keyIs(key, "data"):
			data = d.data()
		default:
			d.skip()
		}
	})
	return typ, data, d.end()
}

// decodeData reads the message bot sent after a deferral, as data (nil if
// the body is JSON null).
func decodeData(body []byte) (*answerData, error) {
	d := reader{b: body}
	data := d.data()
	return data, d.end()
}

// reader reads JSON from b at i. The first error stops it: every read after
// that returns zero values, and err says what was wrong. A syntax error
// goes to err; a field of the wrong type to typeErr, as json.Unmarshal
// reports it after reading on.
type reader struct {
	b       []byte
	i       int
	depth   int
	err     error
	typeErr error
}

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

func (d *reader) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("invalid JSON at offset %d: %s", d.i, what)
	}
	d.i = len(d.b)
}

func (d *reader) wrongType(want string) {
	if d.typeErr == nil {
		d.typeErr = fmt.Errorf("offset %d: a %s was expected", d.i, want)
	}
}

// end checks that nothing but white space follows the value, and returns
// the first error.
func (d *reader) end() error {
	d.ws()
	if d.err == nil && d.i < len(d.b) {
		d.fail("data after the top-level value")
	}
	if d.err != nil {
		return d.err
	}
	return d.typeErr
}

func (d *reader) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek returns the first byte of the next value, 0 at the end.
func (d *reader) peek() byte {
	d.ws()
	if d.i >= len(d.b) {
		return 0
	}
	return d.b[d.i]
}

// literal reads null, true or false if the next value is s.
func (d *reader) literal(s string) bool {
	if d.peek() == s[0] {
		if !bytes.HasPrefix(d.b[d.i:], []byte(s)) {
			d.fail("bad literal")
			return false
		}
		d.i += len(s)
		return true
	}
	return false
}

// object reads an object (or null), calling f with each key; f must read or
// skip the value.
func (d *reader) object(f func(key []byte)) {
	if !d.open('{', "object") {
		return
	}
	defer func() { d.depth-- }()
	if d.peek() == '}' {
		d.i++
		return
	}
	for d.err == nil {
		if d.peek() != '"' {
			d.fail("object key expected")
			return
		}
		key := d.str()
		if d.peek() != ':' {
			d.fail("':' expected")
			return
		}
		d.i++
		if bytes.IndexByte(key, '\\') >= 0 {
			s, _ := jsonString(key)
			key = []byte(s)
		} else {
			key = key[1 : len(key)-1]
		}
		f(key)
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return
		default:
			d.fail("',' or '}' expected in an object")
		}
	}
}

// array reads an array (or null), calling f at each element; f must read
// or skip it.
func (d *reader) array(f func()) {
	if !d.open('[', "array") {
		return
	}
	defer func() { d.depth-- }()
	if d.peek() == ']' {
		d.i++
		return
	}
	for d.err == nil {
		f()
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return
		default:
			d.fail("',' or ']' expected in an array")
		}
	}
}

// open reads the opening bracket of an object or array (what) and reports
// whether its members follow, one level deeper (the caller lowers depth
// when done). null, a value of another type (skipped, with the error) and
// nesting past maxDepth report false.
func (d *reader) open(bracket byte, what string) bool {
	switch d.peek() {
	case bracket:
	case 'n':
		d.literal("null")
		return false
	default:
		if d.err == nil {
			d.wrongType(what)
			d.skip()
		}
		return false
	}
	if d.enter() {
		return false
	}
	d.i++
	return true
}

func (d *reader) enter() bool {
	d.depth++
	if d.depth > maxDepth {
		d.fail("nested too deeply")
		return true
	}
	return false
}

// str reads a string and returns it raw, quotes included; it checks its
// escapes and that it holds no control characters.
func (d *reader) str() []byte {
	start := d.i
	d.i++ // the opening quote
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return d.b[start:d.i]
		case c < 0x20:
			d.fail("control character in a string")
			return nil
		case c == '\\':
			d.i++
			if d.i >= len(d.b) {
				break
			}
			switch d.b[d.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.i++
			case 'u':
				if d.i+5 > len(d.b) || !isHex(d.b[d.i+1:d.i+5]) {
					d.fail("bad \\u escape")
					return nil
				}
				d.i += 5
			default:
				d.fail("bad escape")
				return nil
			}
		default:
			d.i++
		}
	}
	d.fail("unterminated string")
	return nil
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// number reads a number as JSON spells it and returns it raw.
func (d *reader) number() []byte {
	start := d.i
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.b) && d.b[d.i] == '0':
		d.i++
	case d.i < len(d.b) && '1' <= d.b[d.i] && d.b[d.i] <= '9':
		d.digits()
	default:
		d.fail("bad number")
		return nil
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if d.digits() == 0 {
			d.fail("bad fraction")
			return nil
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if d.digits() == 0 {
			d.fail("bad exponent")
			return nil
		}
	}
	return d.b[start:d.i]
}

func (d *reader) digits() int {
	n := 0
	for d.i < len(d.b) && '0' <= d.b[d.i] && d.b[d.i] <= '9' {
		d.i++
		n++
	}
	return n
}

// skip reads any value, checking its syntax, and returns it raw.
func (d *reader) skip() []byte {
	c := d.peek()
	start := d.i
	switch {
	case c == '{':
		d.object(func([]byte) { d.skip() })
	case c == '[':
		d.array(func() { d.skip() })
	case c == '"':
		d.str()
	case c == '-' || '0' <= c && c <= '9':
		d.number()
	case c == 't':
		d.literal("true")
	case c == 'f':
		d.literal("false")
	case c == 'n':
		d.literal("null")
	default:
		d.fail("value expected")
	}
	if d.err != nil {
		return nil
	}
	return d.b[start:d.i]
}

// int reads a number into an int, as json.Unmarshal does: null leaves 0; a
// fraction, an exponent, or a number too big is the wrong type.
func (d *reader) int() int {
	switch c := d.peek(); {
	case c == 'n':
		d.literal("null")
		return 0
	case c == '-' || '0' <= c && c <= '9':
		raw := d.number()
		if d.err != nil {
			return 0
		}
		n, err := strconv.Atoi(string(raw))
		if err != nil {
			d.wrongType("int")
		}
		return n
	default:
		d.wrongType("number")
		d.skip()
		return 0
	}
}

// bool reads true, false or null (false).
func (d *reader) bool() bool {
	switch d.peek() {
	case 't':
		return d.literal("true")
	case 'f':
		d.literal("false")
	case 'n':
		d.literal("null")
	default:
		d.wrongType("bool")
		d.skip()
	}
	return false
}

// string reads a string (null: "") and returns it raw, quotes included, or
// nil for null.
func (d *reader) string() []byte {
	switch d.peek() {
	case '"':
		return d.str()
	case 'n':
		d.literal("null")
	default:
		d.wrongType("string")
		d.skip()
	}
	return nil
}

// data reads an answer's data object; nil if it is null.
func (d *reader) data() *answerData {
	if d.literal("null") {
		return nil
	}
	a := &answerData{}
	d.object(func(key []byte) {
		switch {
		case keyIs(key, "flags"):
			a.flags = d.int()
		case keyIs(key, "content"):
			a.content = d.string()
		case keyIs(key, "components"):
			// The components are read with their own type errors: the
			// client looks at them only after the flags say the answer
			// is not ephemeral.
			outer := d.typeErr
			d.typeErr = nil
			d.ws()
			from := d.i
			a.comps = d.components()
			a.compErr = d.typeErr
			d.typeErr = outer
			a.components = d.b[from:d.i]
		case keyIs(key, "embeds"):
			a.embeds = d.skip()
		default:
			d.skip()
		}
	})
	return a
}

// components reads an array of components.
func (d *reader) components() []component {
	var cs []component
	d.array(func() {
		if cs == nil {
			cs = make([]component, 0, 5) // a row's most, and a message's
		}
		var c component
		d.object(func(key []byte) {
			switch {
			case keyIs(key, "type"):
				c.typ = d.int()
			case keyIs(key, "custom_id"):
				c.customID, _ = jsonString(d.string())
			case keyIs(key, "disabled"):
				c.disabled = d.bool()
			case keyIs(key, "options"):
				// Gathered on the stack (a select menu has at most 25
				// options), then copied once at their number.
				var vals [25]string
				opts := vals[:0]
				d.array(func() {
					var v string
					d.object(func(key []byte) {
						if keyIs(key, "value") {
							v, _ = jsonString(d.string())
						} else {
							d.skip()
						}
					})
					opts = append(opts, v)
				})
				c.options = append(c.options[:0], opts...)
			case keyIs(key, "components"):
				c.components = d.components()
			default:
				d.skip()
			}
		})
		cs = append(cs, c)
	})
	return cs
}

// keyIs reports whether key names field: exactly, or without regard to
// case as json.Unmarshal matches field names.
func keyIs(key []byte, field string) bool {
	return string(key) == field || bytes.EqualFold(key, []byte(field))
}

// jsonString decodes a raw JSON string token (nil: ""). Plain strings are
// copied; the escapes nimbot's answers carry (\u003c for <, \n, \") are
// decoded here; a surrogate escape or bytes that are not UTF-8 go through
// encoding/json, so the result is what json.Unmarshal gives.
func jsonString(raw []byte) (string, error) {
	if len(raw) < 2 {
		return "", nil
	}
	in := raw[1 : len(raw)-1]
	if !utf8.Valid(in) {
		return viaJSON(raw)
	}
	i := bytes.IndexByte(in, '\\')
	if i < 0 {
		return string(in), nil
	}
	out := make([]byte, 0, len(in))
	for i >= 0 {
		out = append(out, in[:i]...)
		if i+1 >= len(in) {
			return viaJSON(raw)
		}
		switch c := in[i+1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+6 > len(in) {
				return viaJSON(raw)
			}
			r, err := strconv.ParseUint(string(in[i+2:i+6]), 16, 16)
			if err != nil || utf16.IsSurrogate(rune(r)) {
				return viaJSON(raw)
			}
			out = utf8.AppendRune(out, rune(r))
			in = in[i+6:]
			i = bytes.IndexByte(in, '\\')
			continue
		default:
			return viaJSON(raw)
		}
		in = in[i+2:]
		i = bytes.IndexByte(in, '\\')
	}
	out = append(out, in...)
	return string(out), nil
}

// viaJSON decodes a raw JSON string token with encoding/json.
func viaJSON(raw []byte) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errors.New("bad string")
	}
	return s, nil
}
