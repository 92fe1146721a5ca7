package bot_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"nimbot/bot"
)

// BenchmarkHTTPPing is the endpoint's fixed cost: body cap, timestamp
// window, Ed25519 verification, decoding and answering, without the product.
func BenchmarkHTTPPing(b *testing.B) {
	key := testKey(7)
	h := bot.NewHTTP(bot.HTTPConfig{PublicKey: key.pub})
	body := fixture(b, "ping.json")
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		req := key.request(b, "http://nimbot.test/interactions", body, time.Now())
		w := httptest.NewRecorder()
		b.StartTimer()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}
