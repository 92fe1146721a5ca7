package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"nimbot/match"
)

// runDailyContract runs the daily puzzle's part of the contract.
func runDailyContract(t *testing.T, open func(*testing.T) match.Storage) {
	t.Run("DailyClaims", func(t *testing.T) { testDailyClaims(t, open(t)) })
	t.Run("DailyClaimRace", func(t *testing.T) { testDailyClaimRace(t, open(t)) })
	t.Run("DailyAnswered", func(t *testing.T) { testDailyAnswered(t, open(t)) })
	t.Run("DailyEdits", func(t *testing.T) { testDailyEdits(t, open(t)) })
	t.Run("DailyEditRace", func(t *testing.T) { testDailyEditRace(t, open(t)) })
	t.Run("Lessons", func(t *testing.T) { testLessons(t, open(t)) })
}

func channelIDs(ds []match.DailyChannel) []string {
	var ids []string
	for _, d := range ds {
		ids = append(ids, d.ChannelID)
	}
	slices.Sort(ids)
	return ids
}

// testDailyClaims: a subscribed channel is claimed once for a day until
// posted or until its claim lapses; a posted day is not claimed again, the
// next day is, and days missed are not (only the day asked for); a
// resubscription keeps the day posted; an unsubscribed channel is never
// claimed.
func testDailyClaims(t *testing.T, db match.Storage) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 0, 0, 30, 0, time.UTC)
	day := match.DayNumber(now)
	for _, c := range []string{"c1", "c2", "c3"} {
		if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: c, GuildID: "g1", UserID: "ann", Locale: "de"}, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SubscribeDaily(ctx, match.DailyChannel{GuildID: "g1", UserID: "ann"}, "", nil); !errors.Is(err, match.ErrInvalid) {
		t.Fatalf("a subscription without a channel: %v", err)
	}
	claim := func(day int64, at time.Time) []string {
		t.Helper()
		ds, err := db.ClaimDaily(ctx, day, at, time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.GuildID != "g1" || d.UserID != "ann" || d.Locale != "de" {
				t.Fatalf("claimed %+v", d)
			}
		}
		return channelIDs(ds)
	}
	if got := claim(day, now); !slices.Equal(got, []string{"c1", "c2", "c3"}) {
		t.Fatalf("the first claim: %v", got)
	}
	if got := claim(day, now.Add(30*time.Second)); len(got) != 0 {
		t.Fatalf("claimed again while claimed: %v", got)
	}
	if err := db.DailyPosted(ctx, match.DailyMessage{ChannelID: "c1", Day: day, MessageID: "m-c1"}, now); err != nil {
		t.Fatal(err)
	}
	// c2 and c3's claims lapse (their instance died): claimed again; c1 is posted.
	if got := claim(day, now.Add(2*time.Minute)); !slices.Equal(got, []string{"c2", "c3"}) {
		t.Fatalf("after the claims lapsed: %v", got)
	}
	for _, c := range []string{"c2", "c3"} {
		if err := db.DailyPosted(ctx, match.DailyMessage{ChannelID: c, Day: day, MessageID: "m-" + c}, now); err != nil {
			t.Fatal(err)
		}
	}
	if got := claim(day, now.Add(time.Hour)); len(got) != 0 {
		t.Fatalf("posted channels claimed again: %v", got)
	}
	// A day back does not undo a post.
	if err := db.DailyPosted(ctx, match.DailyMessage{ChannelID: "c1", Day: day - 3, MessageID: "m-c1"}, now); err != nil {
		t.Fatal(err)
	}
	if got := claim(day, now.Add(2*time.Hour)); len(got) != 0 {
		t.Fatalf("a post moved back: %v", got)
	}
	// Down for five days: the day asked for is due, once.
	later := now.AddDate(0, 0, 5)
	if got := claim(day+5, later); !slices.Equal(got, []string{"c1", "c2", "c3"}) {
		t.Fatalf("five days later: %v", got)
	}
	for _, c := range []string{"c1", "c2", "c3"} {
		if err := db.DailyPosted(ctx, match.DailyMessage{ChannelID: c, Day: day + 5, MessageID: "m-" + c}, now); err != nil {
			t.Fatal(err)
		}
	}
	if got := claim(day+5, later.Add(time.Hour)); len(got) != 0 {
		t.Fatalf("posted five days later, claimed again: %v", got)
	}
	// Resubscribing keeps the day; unsubscribing ends the posts.
	if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: "c1", GuildID: "g1", UserID: "ann", Locale: "de"}, "", nil); err != nil {
		t.Fatal(err)
	}
	if got := claim(day+5, later.Add(2*time.Hour)); len(got) != 0 {
		t.Fatalf("a resubscribed channel was claimed again: %v", got)
	}
	if removed, err := db.UnsubscribeDaily(ctx, "c1", "", nil); err != nil || !removed {
		t.Fatalf("unsubscribe: %v, %v", removed, err)
	}
	if removed, err := db.UnsubscribeDaily(ctx, "c1", "", nil); err != nil || removed {
		t.Fatalf("unsubscribe twice: %v, %v", removed, err)
	}
	if got := claim(day+6, later.AddDate(0, 0, 1)); !slices.Equal(got, []string{"c2", "c3"}) {
		t.Fatalf("the next day after c1 left: %v", got)
	}
}

// testDailyAnswered: a subscription or a removal records its interaction
// as answered in its own transaction, so an interaction answered already
// writes nothing (a redelivery cannot undo a later change), and a removal
// that finds nothing records nothing.
func testDailyAnswered(t *testing.T, db match.Storage) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 0, 0, 30, 0, time.UTC)
	day := match.DayNumber(now)
	sub := func(channel, interactionID string) error {
		return db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: channel, GuildID: "g1", UserID: "ann"}, interactionID, []byte("answer "+interactionID))
	}
	claimed := func(at time.Time) []string {
		t.Helper()
		ds, err := db.ClaimDaily(ctx, day, at, time.Second, 10)
		if err != nil {
			t.Fatal(err)
		}
		return channelIDs(ds)
	}
	if err := sub("c1", "i-sub"); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Response(ctx, "i-sub"); err != nil || string(got) != "answer i-sub" {
		t.Fatalf("the subscription's answer: %q, %v", got, err)
	}
	if err := sub("c2", "i-sub"); !errors.Is(err, match.ErrDuplicate) {
		t.Fatalf("a subscription under an answered interaction: %v", err)
	}
	if removed, err := db.UnsubscribeDaily(ctx, "c1", "i-sub", []byte("again")); !errors.Is(err, match.ErrDuplicate) || removed && err == nil {
		t.Fatalf("a removal under an answered interaction: %v, %v", removed, err)
	}
	if got := claimed(now); !slices.Equal(got, []string{"c1"}) {
		t.Fatalf("after the refused writes, claimed %v; want c1 alone", got)
	}
	if removed, err := db.UnsubscribeDaily(ctx, "c9", "i-none", []byte("nothing")); err != nil || removed {
		t.Fatalf("removing a channel never subscribed: %v, %v", removed, err)
	}
	if _, err := db.Response(ctx, "i-none"); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("a removal that found nothing recorded its interaction: %v", err)
	}
	if removed, err := db.UnsubscribeDaily(ctx, "c1", "i-stop", []byte("stopped")); err != nil || !removed {
		t.Fatalf("unsubscribe: %v, %v", removed, err)
	}
	if got, err := db.Response(ctx, "i-stop"); err != nil || string(got) != "stopped" {
		t.Fatalf("the removal's answer: %q, %v", got, err)
	}
	if err := sub("c1", "i-sub"); !errors.Is(err, match.ErrDuplicate) {
		t.Fatalf("the first subscription redelivered after the removal: %v", err)
	}
	if got := claimed(now.Add(time.Minute)); len(got) != 0 {
		t.Fatalf("a redelivered subscription came back: %v", got)
	}
}

// testDailyClaimRace: instances claiming at once never get one channel
// twice for a day, and between them claim every channel.
func testDailyClaimRace(t *testing.T, db match.Storage) {
	ctx := context.Background()
	const channels, claimers = 30, 8
	for i := range channels {
		if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: fmt.Sprintf("ch%02d", i), GuildID: "g", UserID: "u"}, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	day := match.DayNumber(now)
	claimedOnceEach(t, channels, claimers, func() ([]string, error) {
		ds, err := db.ClaimDaily(ctx, day, now, time.Hour, 3)
		return channelIDs(ds), err
	})
}

// claimedOnceEach runs claim by claimers at once, round after round, until
// every one of channels is claimed (at most 10 rounds), and fails t unless
// each was claimed exactly once.
func claimedOnceEach(t *testing.T, channels, claimers int, claim func() ([]string, error)) {
	t.Helper()
	var mu sync.Mutex
	got := map[string]int{}
	for round := 0; round < 10 && len(got) < channels; round++ {
		errs := make([]error, claimers)
		atOnce(claimers, func(i int) func() {
			return func() {
				ids, err := claim()
				errs[i] = err
				mu.Lock()
				defer mu.Unlock()
				for _, id := range ids {
					got[id]++
				}
			}
		})
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(got) != channels {
		t.Fatalf("%d of %d channels claimed", len(got), channels)
	}
	for c, n := range got {
		if n != 1 {
			t.Fatalf("%s claimed %d times", c, n)
		}
	}
}

// testDailyEdits: a post is claimed for an edit once per interval, only
// while its day lasts and once its message is recorded; the claim returns
// what the message shows, DailyEdited changes it (for that day only), and
// an empty message id ends the edits.
func testDailyEdits(t *testing.T, db match.Storage) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 0, 0, 30, 0, time.UTC)
	day := match.DayNumber(now)
	const every = 10 * time.Minute
	for _, c := range []string{"c1", "c2"} {
		if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: c, GuildID: "g1", UserID: "ann", Locale: "fr"}, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	claim := func(day int64, at time.Time) []match.DailyMessage {
		t.Helper()
		ms, err := db.ClaimDailyEdits(ctx, day, at, every, 10)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	if got := claim(day, now); len(got) != 0 {
		t.Fatalf("edits claimed before any post: %v", got)
	}
	if _, err := db.ClaimDaily(ctx, day, now, time.Minute, 10); err != nil {
		t.Fatal(err)
	}
	if err := db.DailyPosted(ctx, match.DailyMessage{ChannelID: "c1", Day: day, MessageID: "m1", Solved: 2}, now.Add(every)); err != nil {
		t.Fatal(err)
	}
	if got := claim(day, now.Add(every-time.Second)); len(got) != 0 {
		t.Fatalf("an edit claimed before it was due: %v", got)
	}
	want := match.DailyMessage{ChannelID: "c1", Day: day, MessageID: "m1", Solved: 2, Locale: "fr"}
	at := now.Add(every)
	if got := claim(day, at); len(got) != 1 || got[0] != want {
		t.Fatalf("the due edit: %+v, want %+v", got, want)
	}
	if got := claim(day, at.Add(every-time.Second)); len(got) != 0 {
		t.Fatalf("claimed again within the interval: %v", got)
	}
	if got := claim(day-1, at.Add(every)); len(got) != 0 {
		t.Fatalf("another day's edits claimed: %v", got)
	}
	want.Solved = 5
	if err := db.DailyEdited(ctx, want); err != nil {
		t.Fatal(err)
	}
	// Another day's record changes nothing.
	if err := db.DailyEdited(ctx, match.DailyMessage{ChannelID: "c1", Day: day - 1, MessageID: "", Solved: 9}); err != nil {
		t.Fatal(err)
	}
	at = at.Add(every)
	if got := claim(day, at); len(got) != 1 || got[0] != want {
		t.Fatalf("after the edit: %+v, want %+v", got, want)
	}
	// A late post of an older day moves nothing back.
	if err := db.DailyPosted(ctx, match.DailyMessage{ChannelID: "c1", Day: day - 1, MessageID: "old"}, now); err != nil {
		t.Fatal(err)
	}
	at = at.Add(every)
	if got := claim(day, at); len(got) != 1 || got[0] != want {
		t.Fatalf("after a late post: %+v, want %+v", got, want)
	}
	// The message is gone: no more edits.
	if err := db.DailyEdited(ctx, match.DailyMessage{ChannelID: "c1", Day: day}); err != nil {
		t.Fatal(err)
	}
	if got := claim(day, at.Add(every)); len(got) != 0 {
		t.Fatalf("a gone message claimed: %v", got)
	}
	// The next day's post is edited again; the day ending ends the edits.
	next := now.AddDate(0, 0, 1)
	if err := db.DailyPosted(ctx, match.DailyMessage{ChannelID: "c1", Day: day + 1, MessageID: "m2"}, next); err != nil {
		t.Fatal(err)
	}
	if got := claim(day+1, next); len(got) != 1 || got[0].MessageID != "m2" || got[0].Solved != 0 {
		t.Fatalf("the next day's post: %+v", got)
	}
	if got := claim(day+2, next.AddDate(0, 0, 1)); len(got) != 0 {
		t.Fatalf("a post edited after its day: %v", got)
	}
}

// testDailyEditRace: instances claiming edits at once never get one post
// twice in an interval, and between them claim every post.
func testDailyEditRace(t *testing.T, db match.Storage) {
	ctx := context.Background()
	const channels, claimers = 30, 8
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	day := match.DayNumber(now)
	for i := range channels {
		c := fmt.Sprintf("ch%02d", i)
		if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: c, GuildID: "g", UserID: "u"}, "", nil); err != nil {
			t.Fatal(err)
		}
		if err := db.DailyPosted(ctx, match.DailyMessage{ChannelID: c, Day: day, MessageID: "m" + c}, now); err != nil {
			t.Fatal(err)
		}
	}
	claimedOnceEach(t, channels, claimers, func() ([]string, error) {
		ms, err := db.ClaimDailyEdits(ctx, day, now, time.Hour, 3)
		ids := make([]string, len(ms))
		for i, m := range ms {
			ids[i] = m.ChannelID
		}
		return ids, err
	})
}

// testLessons: progress is per user and lesson, and never goes back.
func testLessons(t *testing.T, db match.Storage) {
	ctx := context.Background()
	if p, err := db.LessonProgress(ctx, "ann"); err != nil || len(p) != 0 {
		t.Fatalf("a newcomer's progress: %v, %v", p, err)
	}
	for _, step := range []struct {
		user, lesson string
		solved       int
	}{{"ann", "21", 1}, {"ann", "21", 3}, {"ann", "21", 2}, {"ann", "nimsum", 1}, {"bob", "21", 2}} {
		if err := db.AdvanceLesson(ctx, step.user, step.lesson, step.solved); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := db.LessonProgress(ctx, "ann"); err != nil || len(p) != 2 || p["21"] != 3 || p["nimsum"] != 1 {
		t.Fatalf("ann's progress: %v, %v", p, err)
	}
	if p, err := db.LessonProgress(ctx, "bob"); err != nil || len(p) != 1 || p["21"] != 2 {
		t.Fatalf("bob's progress: %v, %v", p, err)
	}
	if err := db.AdvanceLesson(ctx, "ann", "21", -1); !errors.Is(err, match.ErrInvalid) {
		t.Fatalf("negative progress: %v", err)
	}
}
