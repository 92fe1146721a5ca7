package bot_test

import (
	"context"
	"net/http"
	"testing"
)

// TestHTTPHostilePayloads: validly signed requests whose interaction is
// not what Discord documents (fields missing, of the wrong kind, not JSON)
// each get a clear answer, 400 when they do not decode and an ephemeral
// reply when they do, and change nothing: no game, no saved answer, no REST
// call. A signature proves only that the request came through Discord's
// key, and the decoder is the one place every field is first read.
func TestHTTPHostilePayloads(t *testing.T) {
	he := newHTTPEnv(t, nil)
	url := he.srv.URL + "/interactions"
	// edit is the documented payload name from alice, changed by f.
	edit := func(name string, f func(m map[string]any)) []byte {
		m := he.p.load(name)
		setUser(m, alice)
		f(m)
		return he.p.marshal(m)
	}
	// start makes a command payload /nim start heaps:3 4 5.
	start := func(m map[string]any) {
		m["data"].(map[string]any)["options"] = []any{map[string]any{"name": "start", "type": 1,
			"options": []any{map[string]any{"name": "heaps", "type": 3, "value": "3 4 5"}}}}
	}
	cases := []struct {
		name    string
		payload []byte
		want    int
	}{
		{"not JSON", []byte(`{"type":2,`), http.StatusBadRequest},
		{"not an object", []byte(`[]`), http.StatusBadRequest},
		{"command data of the wrong kind", []byte(`{"type":2,"data":"start"}`), http.StatusBadRequest},
		{"click data of the wrong kind", []byte(`{"type":3,"data":[]}`), http.StatusBadRequest},
		{"modal components of the wrong kind", []byte(`{"type":5,"data":{"components":7}}`), http.StatusBadRequest},
		{"message of the wrong kind", edit("component.json", func(m map[string]any) { m["message"] = []any{} }), http.StatusBadRequest},
		{"command without data", edit("command.json", func(m map[string]any) { delete(m, "data") }), http.StatusBadRequest},
		{"empty object", []byte(`{}`), http.StatusOK},
		{"command without user or member", edit("command.json", func(m map[string]any) { start(m); delete(m, "member") }), http.StatusOK},
		{"command without options", edit("command.json", func(m map[string]any) {}), http.StatusOK},
		{"command without channel", edit("command.json", func(m map[string]any) { start(m); delete(m, "channel_id"); delete(m, "channel") }), http.StatusOK},
		{"click without message", edit("component.json", func(m map[string]any) {
			delete(m, "message")
			m["data"].(map[string]any)["custom_id"] = "move/1/0/a"
		}), http.StatusOK},
		{"click with data null", edit("component.json", func(m map[string]any) { m["data"] = nil }), http.StatusOK},
		{"unknown type", edit("command.json", func(m map[string]any) { m["type"] = 9 }), http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := he.post(he.key.request(t, url, c.payload, he.clock.Now()))
			if status != c.want {
				t.Fatalf("status %d (%s), want %d", status, body, c.want)
			}
			if status != http.StatusOK {
				return
			}
			resp, err := decodeResponse(body)
			if err != nil {
				t.Fatalf("answer %s: %v", body, err)
			}
			if !ephemeral(resp) {
				t.Errorf("answer %s, want an ephemeral reply", describe(resp))
			}
		})
	}
	if _, err := he.db.ChannelGame(context.Background(), testChannel); !isNotFound(err) {
		t.Errorf("a hostile payload started a game (err %v)", err)
	}
	he.h.Wait(context.Background())
	he.fd.mu.Lock()
	calls := len(he.fd.calls)
	he.fd.mu.Unlock()
	if calls != 0 {
		t.Errorf("%d REST calls after hostile payloads", calls)
	}
}
