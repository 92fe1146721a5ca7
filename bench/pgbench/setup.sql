-- 64 live games against nimbot, one per pgbench client (game id = client id
-- + 1), four moves into each, on a database nimbot has migrated.
INSERT INTO games (guild_id, channel_id, variant, rules, start, position, player0, player1, status, created_by, created_at, updated_at)
SELECT '1', 'c' || i, 'nim', '{"variant":"nim"}', '{"heaps":[3,4,5]}', '{"heaps":[3,4,5]}', 'u' || i, 'bot', 'active', 'u' || i, 0, 0
FROM generate_series(1, 64) i;
INSERT INTO moves (game_id, ply, player, move, hinted, at)
SELECT g.id, n, CASE n % 2 WHEN 0 THEN g.player0 ELSE g.player1 END, '{"heap":2,"take":1}', false, 0
FROM games g CROSS JOIN generate_series(0, 3) n
ORDER BY g.id, n;
