package store

import (
	"context"
	"fmt"
	"time"

	"nimbot/match"
)

// LessonProgress returns how many exercises of each lesson the user has
// solved (match.LessonStorage).
func (db *DB) LessonProgress(ctx context.Context, userID string) (map[string]int, error) {
	rows, err := db.reads.QueryContext(ctx, lessonProgressSQL, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var l string
		var n int
		if err := rows.Scan(&l, &n); err != nil {
			return nil, err
		}
		out[l] = n
	}
	return out, rows.Err()
}

// AdvanceLesson records progress in a lesson; it never goes back.
func (db *DB) AdvanceLesson(ctx context.Context, userID, lesson string, solved int) error {
	if userID == "" || lesson == "" || solved < 0 {
		return fmt.Errorf("%w: lesson progress %q %q %d", match.ErrInvalid, userID, lesson, solved)
	}
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		return tx.exec(ctx, advanceLessonSQL,
			userID, lesson, solved, toMillis(now))
	})
}

// The lessons' statements, prepared at Open (stmts.go).
const (
	lessonProgressSQL = `SELECT lesson, solved FROM lesson_progress WHERE user_id = ?`
	advanceLessonSQL  = `INSERT INTO lesson_progress (user_id, lesson, solved, updated_at) VALUES (?1, ?2, ?3, ?4)
		ON CONFLICT (user_id, lesson) DO UPDATE SET solved = MAX(solved, excluded.solved), updated_at = excluded.updated_at`
)
