-- A board read, as store/postgres's boardQuery (game.go) sends it (its
-- TestBenchReplicas keeps the two the same), of a
-- game of four moves (setup.sql).
\set g :client_id + 1
SELECT id, guild_id, channel_id, rules, start, position, player0, player1, ply, status, winner, difficulty, hints, locale, interaction_only, message_id, turn_timeout, deadline, created_by, created_at, updated_at, EXISTS (SELECT 1 FROM hints WHERE game_id = games.id AND ply = games.ply AND user_id = CASE games.ply % 2 WHEN 0 THEN games.player0 ELSE games.player1 END), m.plies, m.players, m.moves, m.hinted, m.ats FROM games CROSS JOIN LATERAL (SELECT array_agg(ply ORDER BY ply) AS plies, array_agg(player ORDER BY ply) AS players, array_agg(move ORDER BY ply) AS moves, array_agg(hinted ORDER BY ply) AS hinted, array_agg(at ORDER BY ply) AS ats FROM moves WHERE moves.game_id = games.id AND moves.ply < games.ply) m WHERE games.id = :g;
