package main

import (
	"context"
	"fmt"
	"io"

	"nimbot/commands"
	"nimbot/match"
)

const (
	forgetUsage = `Usage: nimbot forget USER_ID

Deletes what nimbot holds about the Discord user USER_ID, everywhere, in one
transaction: their stats, ratings and records, the hints they asked for and
the saved answers that name them. Their games in progress end without a
result; finished games with another person stay for that person, with
"deleted" in the user's seat; games with nobody else in them are deleted.
For requests that come by mail; users can do the same with /nim privacy.
Running it again finds nothing and changes nothing.
`
	forgetServerUsage = `Usage: nimbot forget-server GUILD_ID

Deletes everything nimbot holds about the Discord server GUILD_ID, in one
transaction: its games, results, stats, ratings and the saved answers that
name it. Running it again finds nothing and changes nothing.
`
)

// forget runs "nimbot forget USER_ID" (server false) or "nimbot
// forget-server GUILD_ID" (server true) on the configured database.
func forget(ctx context.Context, cfg config, server bool, args []string, out, errOut io.Writer) int {
	name, usage, what := "forget", forgetUsage, "USER_ID"
	if server {
		name, usage, what = "forget-server", forgetServerUsage, "GUILD_ID"
	}
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(out, usage)
		return 0
	}
	if len(args) != 1 {
		fmt.Fprintf(errOut, "nimbot: %s needs one %s\n\n%s", name, what, usage)
		return 2
	}
	id := args[0]
	if !match.IsSnowflake(id) {
		fmt.Fprintf(errOut, "nimbot: %s: %q is not a Discord id (a number like 1170000000000000001; Discord's Developer Mode: right-click → Copy ID)\n", name, id)
		return 2
	}
	db, err := openStore(ctx, cfg)
	if err != nil {
		return exit(errOut, err)
	}
	defer db.Close()
	var f match.Forgotten
	if server {
		f, err = db.ForgetGuild(ctx, id)
	} else {
		f, err = db.ForgetUser(ctx, id)
	}
	if err != nil {
		return exit(errOut, err)
	}
	fmt.Fprintln(out, forgottenText(server, id, f))
	return 0
}

// forgottenText says what a forgetting changed, for the operator.
func forgottenText(server bool, id string, f match.Forgotten) string {
	who := "user " + id
	if server {
		who = "server " + id
	}
	if f.Zero() {
		return "nimbot holds nothing about " + who + " (any more): nothing changed"
	}
	text := fmt.Sprintf("forgot %s: %d games deleted", who, f.Deleted)
	if !server {
		text += fmt.Sprintf(", %d games in progress ended without a result, %d finished games kept for the other players with %q in the user's seat",
			f.Ended, f.Anonymized, match.Tombstone)
	}
	return text + fmt.Sprintf(", %d records (stats, ratings, records against nimbot), %d hints, %d saved answers deleted",
		f.Records, f.Hints, f.Answers)
}

// pages renders serve's /privacy and /terms from the catalog and the
// operator's settings, once, at start.
func pages(cfg config) func(name, acceptLanguage string) ([]byte, string, bool) {
	return commands.RenderPages(commands.PageSettings{OperatorName: cfg.OperatorName, OperatorContact: cfg.OperatorContact,
		Retention: cfg.Retention, ForgetAfter: cfg.ForgetAfter, IdleAfter: cfg.IdleAfter})
}
