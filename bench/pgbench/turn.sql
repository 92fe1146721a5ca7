-- A click against nimbot that leaves the game live, as store/postgres's
-- Commit (commit.go) sends it (its TestBenchReplicas keeps the two the
-- same): one pipelined round trip, the game's lock,
-- the two moves (the player's and nimbot's reply) with their trigger, the
-- guarded update with the saved answer, COMMIT. The answer is 2,215 bytes
-- of a real board's JSON with its colons replaced (pgbench reads :name as
-- a variable). :p is the game's ply: run it with -D p=4, after setup.sql.
\set g :client_id + 1
\startpipeline
BEGIN;
SELECT id, guild_id, channel_id, rules, start, position, player0, player1, ply, status, winner, difficulty, hints, locale, interaction_only, message_id, turn_timeout, deadline, created_by, created_at, updated_at FROM games WHERE id = :g FOR UPDATE;
INSERT INTO moves (game_id, ply, player, move, hinted, at)
SELECT g.id, p.ply, p.player, m.move,
  EXISTS (SELECT 1 FROM hints h WHERE h.game_id = g.id AND h.ply = p.ply AND h.user_id = p.player), 0
FROM games g
  CROSS JOIN unnest(ARRAY['{"heap":0,"take":1}', '{"heap":1,"take":1}']::jsonb[]) WITH ORDINALITY AS m (move, n)
  CROSS JOIN LATERAL (SELECT g.ply + m.n::integer - 1 AS ply,
    CASE (g.ply + m.n::integer - 1) % 2 WHEN 0 THEN g.player0 ELSE g.player1 END AS player) p
WHERE g.id = :g AND g.ply = :p AND g.status = 'active'
ORDER BY m.n;
WITH u AS (UPDATE games SET position = '{"heaps":[3,4,5]}', status = 'active', winner = '', deadline = NULL, updated_at = 0, claimed_until = NULL
    WHERE id = :g AND ply = :p + 2 AND status = 'active' AND xmin = pg_current_xact_id()::xid RETURNING id),
  i AS (INSERT INTO interactions (id, game_id, response, at)
    SELECT 'bench-' || :g || '-' || :p, id, convert_to('{"app_permissions"="562949953601536","application_id"="1200000000000000000","channel"={"flags"=0,"guild_id"="1576557965492617218","id"="1576557965492617352","name"="nim-games","permissions"="2248473465835073","type"=0},"channel_id"="1576557965492617352","context"=0,"data"={"component_type"=3,"custom_id"="play/128/0/all","values"=["C5"]},"entitlements"=[],"guild_id"="1576557965492617218","guild_locale"="en-US","id"="1576557966289534976","locale"="en-US","member"={"deaf"=false,"flags"=0,"joined_at"="2024-05-01T12=00=00.000000+00=00","mute"=false,"pending"=false,"permissions"="2248473465835073","roles"=[],"user"={"avatar"=null,"discriminator"="0","global_name"="Player 7353","id"="1576557965492617353","public_flags"=0,"username"="player7353"}},"message"={"application_id"="1200000000000000000","attachments"=[],"author"={"avatar"=null,"bot"=true,"discriminator"="0000","id"="1200000000000000000","username"="nimbot"},"channel_id"="1576557965492617352","components"=[{"components"=[{"label"="A · 3","style"=2,"disabled"=false,"custom_id"="heap/128/0/0","type"=2},{"label"="B · 4","style"=2,"disabled"=false,"custom_id"="heap/128/0/1","type"=2},{"label"="C · 5","style"=2,"disabled"=false,"custom_id"="heap/128/0/2","type"=2}],"type"=1},{"components"=[{"label"="Hint","style"=2,"disabled"=false,"emoji"={"name"="💡"},"custom_id"="hint/128/0","type"=2},{"label"="Type a move","style"=2,"disabled"=false,"emoji"={"name"="⌨️"},"custom_id"="type/128/0","type"=2},{"label"="Resign","style"=4,"disabled"=false,"emoji"={"name"="🏳️"},"custom_id"="resign/128/0","type"=2}],"type"=1},{"components"=[{"custom_id"="play/128/0/all","placeholder"="Or any move in one click","options"=[{"label"="takes 1 from A","value"="A1","description"="typed as A1","default"=false},{"label"="takes 2 from A","value"="A2","description"="typed as A2","default"=false},{"label"="takes 3 from A","value"="A3","description"="typed as A3","default"=false},{"label"="takes 1 from B","value"="B1","description"="typed as B1","default"=false},{"label"="takes 2 from B","value"="B2","description"="typed as B2","default"=false},{"label"="takes 3 from B","value"="B3","description"="typed as B3","default"=false},{"label"="takes 4 from B","value"="B4', 'UTF8'), 0 FROM u)
SELECT id FROM u;
COMMIT;
\endpipeline
\set p :p + 2
