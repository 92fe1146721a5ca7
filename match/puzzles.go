package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"nimbot/engine"
)

// PuzzleStorage is the part of the storage contract that keeps puzzle
// attempts and ratings. Like every write of Storage, RecordPuzzleAttempt is
// one transaction.
type PuzzleStorage interface {
	// RecordPuzzleAttempt records one attempt at a puzzle and, when it is
	// rated (a.Rated and the user's first attempt at a.PuzzleID), moves both
	// the user's and the puzzle's rating by RatePuzzleAttempt, all in one
	// transaction. Updates to one puzzle or one user are serialized: two
	// attempts finishing at once both count. It counts the attempt in the
	// user's solved/attempted, keeps their best streak (a.Streak), and makes
	// them a member of a.Scope's puzzle board. An attempt whose AttemptKey
	// was recorded before changes nothing and returns the first one's
	// outcome with an error wrapping ErrDuplicate, so a double click counts
	// once. With InteractionID, the interaction is recorded as answered in
	// the same transaction (ErrDuplicate, and nothing written, if it was).
	RecordPuzzleAttempt(ctx context.Context, a PuzzleAttempt) (PuzzleOutcome, error)
	// PuzzleAttemptOutcome returns the outcome of the attempt recorded
	// under attemptKey, or ErrNotFound.
	PuzzleAttemptOutcome(ctx context.Context, attemptKey string) (PuzzleOutcome, error)
	// PuzzleStats returns the user's puzzle record; a user with no attempt
	// gets NewGlicko and zero counts.
	PuzzleStats(ctx context.Context, userID string) (PuzzleStats, error)
	// PuzzleLeaderboard returns up to limit users who attempted a puzzle
	// in scope (see Scope), best puzzle rating first, then most solved.
	PuzzleLeaderboard(ctx context.Context, scope string, limit int) ([]PuzzleStats, error)
	// PuzzleCounts returns how many attempts at the puzzle were recorded,
	// and how many of them solved it (0, 0 for a puzzle never tried).
	PuzzleCounts(ctx context.Context, puzzleID string) (attempts, solves int, err error)
	// PuzzlesSeen reports which of the puzzle ids (at most MaxPuzzlesSeen)
	// the user has attempted.
	PuzzlesSeen(ctx context.Context, userID string, puzzleIDs []string) (map[string]bool, error)
}

// PuzzleAttempt is one finished attempt at a puzzle, as
// RecordPuzzleAttempt writes it.
type PuzzleAttempt struct {
	// AttemptKey names the attempt: the same key is the same attempt
	// (a double click on the move that finished it), recorded once.
	AttemptKey string
	UserID     string
	// Scope is where the attempt was made (Scope): the puzzle board it
	// counts on.
	Scope    string
	PuzzleID string
	Theme    engine.Theme
	// Initial is the puzzle's rating if it has none stored yet
	// (PuzzleGlicko of the puzzle).
	Initial Glicko
	Solved  bool
	// Rated asks for a rated attempt; streaks and lessons are casual
	// (false) and only counted. A retry is never rated, whatever it asks.
	Rated bool
	// Streak, in streak mode, is the run of puzzles solved so far,
	// counting this one if solved; the user's best streak keeps the
	// longest. 0 otherwise.
	Streak int
	// InteractionID and Response, when InteractionID is not "", record the
	// interaction as answered in the same transaction.
	InteractionID string
	Response      []byte
}

// PuzzleOutcome is what an attempt did to the ratings: each side's rating
// after it and the change (0 when not rated).
type PuzzleOutcome struct {
	Solved       bool
	Rated        bool
	Player       float64
	PlayerChange float64
	Puzzle       float64
	PuzzleChange float64
}

// PuzzleStats is a user's puzzle record.
type PuzzleStats struct {
	UserID     string
	Rating     Glicko
	Attempted  int
	Solved     int
	BestStreak int
}

// MaxPuzzleKey bounds an attempt key, a user id and a puzzle id: a
// custom_id holds 100 characters, so nothing longer comes from Discord.
const MaxPuzzleKey = 100

// MaxPuzzlesSeen bounds the ids one PuzzlesSeen call asks about.
const MaxPuzzlesSeen = 500

// CheckPuzzleAttempt is the check every implementation makes before its
// transaction: the keys are present and short, the rating to start from
// is a rating, the streak is not negative.
func CheckPuzzleAttempt(a PuzzleAttempt) error {
	switch {
	case a.AttemptKey == "" || a.UserID == "" || a.PuzzleID == "" || a.Scope == "":
		return fmt.Errorf("%w: a puzzle attempt needs its key, user, scope and puzzle", ErrInvalid)
	case len(a.AttemptKey) > MaxPuzzleKey || len(a.UserID) > MaxPuzzleKey || len(a.PuzzleID) > MaxPuzzleKey || len(a.Scope) > MaxPuzzleKey:
		return fmt.Errorf("%w: a puzzle attempt's key, user, scope or puzzle is too long", ErrInvalid)
	case a.Streak < 0:
		return fmt.Errorf("%w: streak %d", ErrInvalid, a.Streak)
	case !(a.Initial.Deviation > 0 && a.Initial.Volatility > 0 && a.Initial.Rating > 0):
		return fmt.Errorf("%w: a puzzle's initial rating %+v", ErrInvalid, a.Initial)
	}
	return nil
}

// Outcome is the outcome of a rated or casual attempt, from the ratings
// before it and after it.
func (a PuzzleAttempt) Outcome(rated bool, player, newPlayer, puzzle, newPuzzle Glicko) PuzzleOutcome {
	return PuzzleOutcome{Solved: a.Solved, Rated: rated,
		Player: newPlayer.Rating, PlayerChange: newPlayer.Rating - player.Rating,
		Puzzle: newPuzzle.Rating, PuzzleChange: newPuzzle.Rating - puzzle.Rating}
}

// Rate is the ratings after an attempt, rated or not (unrated: unchanged):
// the one rule both stores apply inside their transaction.
func (a PuzzleAttempt) Rate(rated bool, player, puzzle Glicko) (Glicko, Glicko) {
	if !rated {
		return player, puzzle
	}
	return RatePuzzleAttempt(player, puzzle, a.Solved, a.Theme)
}

// errDuplicateAttempt is returned with the first outcome of an attempt key.
var errDuplicateAttempt = fmt.Errorf("puzzle attempt already recorded: %w", ErrDuplicate)

// DuplicateAttempt is the error RecordPuzzleAttempt returns, with the first
// outcome, for an attempt key recorded before.
func DuplicateAttempt(key string) error {
	return fmt.Errorf("attempt %s: %w", key, errDuplicateAttempt)
}

// IsDuplicateAttempt reports whether err says the attempt was recorded
// before (and not that the interaction was answered before).
func IsDuplicateAttempt(err error) bool { return errors.Is(err, errDuplicateAttempt) }

// DailyStorage keeps the channels subscribed to the daily puzzle and who
// posts each day's, once.
type DailyStorage interface {
	// SubscribeDaily subscribes d.ChannelID (or updates who subscribed it
	// and the posts' language), keeping the day last posted there. With
	// interactionID not "", the interaction is recorded as answered with
	// response in the same transaction (ErrDuplicate, and nothing
	// written, if it was).
	SubscribeDaily(ctx context.Context, d DailyChannel, interactionID string, response []byte) error
	// UnsubscribeDaily removes the channel and reports whether it was
	// subscribed. With interactionID not "", a removal records the
	// interaction as answered with response in the same transaction
	// (ErrDuplicate, and nothing removed, if it was); finding nothing to
	// remove records nothing.
	UnsubscribeDaily(ctx context.Context, channelID, interactionID string, response []byte) (bool, error)
	// ClaimDaily claims up to limit subscribed channels where day's puzzle
	// is not posted yet and no claim is running (a claim runs until now +
	// lease), for the caller to post in: of instances claiming at once,
	// each channel goes to one. A claim that lapses (its instance died)
	// lets the channel be claimed again.
	ClaimDaily(ctx context.Context, day int64, now time.Time, lease time.Duration, limit int) ([]DailyChannel, error)
	// DailyPosted records that m.Day's puzzle is posted in m.ChannelID as
	// message m.MessageID showing m.Solved solves, and ends its claim; it
	// never moves the day back. The post's first edit is due at editAt.
	DailyPosted(ctx context.Context, m DailyMessage, editAt time.Time) error
	// ClaimDailyEdits claims up to limit of day's posts whose next edit is
	// due at now (message recorded, edit_at passed), moving each one's next
	// edit to now + every in the claiming statement: of instances claiming
	// at once, each post goes to one, and a post is claimed at most once
	// per every.
	ClaimDailyEdits(ctx context.Context, day int64, now time.Time, every time.Duration, limit int) ([]DailyMessage, error)
	// DailyEdited records that day m.Day's post now shows m.Solved solves
	// and is message m.MessageID ("" stops its edits: it is gone). A post
	// of another day is left alone.
	DailyEdited(ctx context.Context, m DailyMessage) error
}

// DailyMessage is a day's post in a subscribed channel, edited while the
// day lasts with the running count of today's solves.
type DailyMessage struct {
	ChannelID string
	Day       int64
	MessageID string
	// Solved is how many solves the message shows.
	Solved int
	// Locale is the language of the post (the subscriber's).
	Locale string
}

// DailyChannel is a channel subscribed to the daily puzzle.
type DailyChannel struct {
	ChannelID string
	GuildID   string
	// UserID subscribed it; Locale is the language of the posts (theirs).
	UserID string
	Locale string
	// LastDay is the UTC day (DayNumber) whose puzzle was last posted.
	LastDay int64
}

// DayNumber is t's UTC day: days since 1970-01-01.
func DayNumber(t time.Time) int64 {
	s := t.Unix()
	if s < 0 && s%86400 != 0 {
		return s/86400 - 1
	}
	return s / 86400
}

// LessonStorage keeps each user's progress through the lessons.
type LessonStorage interface {
	// LessonProgress returns how many exercises of each lesson the user
	// has solved (lessons never started are absent).
	LessonProgress(ctx context.Context, userID string) (map[string]int, error)
	// AdvanceLesson records that the user has solved solved exercises of
	// lesson; progress never goes back.
	AdvanceLesson(ctx context.Context, userID, lesson string, solved int) error
}
