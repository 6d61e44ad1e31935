-- The history sample of an update keeps the server's status (the column of
-- 0005_sample_status): pennant_server_push of 0001_push_function as it was,
-- but that the sample's "online" is whether the stored status, after this
-- push, is "online" (as src/minecraft/status.ts reads it), the minute's latest
-- update deciding, as it does for players max and TPS. Same signature, same
-- refusals.

-- A server's heartbeat or update (p_update) as one call: 'new', or
-- 'duplicate' (nothing written) for this exact push already remembered.
-- A field passed as NULL keeps its stored value; p_extra is merged key by key
-- (jsonb ||). Ownership is decided by the upsert itself (its update applies
-- only for the owning token): of tokens racing for a new server one owns it,
-- the others get PNOWN. An update also writes its minute's history sample (the minute's
-- highest players online, the latest time's players max, TPS and status) and drops
-- the server's samples taken before p_history_before, in one statement: the
-- two touch different rows.
CREATE OR REPLACE FUNCTION pennant_server_push(
	p_sweep boolean, p_now int8, p_key text, p_fingerprint text, p_expires_at int8, p_timestamp_ms int8,
	p_token_id int8, p_token_hash text, p_registration_max integer, p_idle_before int8,
	p_max_bytes int8, p_last_used_before int8, p_max_records integer, p_history_before int8,
	p_uuid text, p_update boolean, p_name text, p_plugin_version text, p_status text,
	p_players_online integer, p_players_max integer, p_tps double precision, p_motd text, p_version text, p_extra jsonb)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	v_token int8;
	v_before int8;
	v_after int8;
	v_online integer;
	v_max integer;
	v_tps double precision;
	v_status text;
BEGIN
	SELECT o_token, o_before INTO v_token, v_before FROM pennant_push_start(p_sweep, p_now, p_key, p_fingerprint, p_expires_at,
		p_timestamp_ms, p_token_id, p_token_hash, p_registration_max, p_idle_before, 'server', p_uuid, p_max_records);
	IF v_token IS NULL THEN
		RETURN 'duplicate';
	END IF;

	INSERT INTO servers AS s (uuid, token_id, name, plugin_version, status, players_online, players_max, tps, motd, version, extra,
		first_seen, last_seen, stats_updated_at)
	VALUES (p_uuid, v_token, p_name, p_plugin_version, p_status, p_players_online, p_players_max, p_tps, p_motd, p_version, p_extra,
		p_now, p_now, CASE WHEN p_update THEN p_now END)
	ON CONFLICT (uuid) DO UPDATE SET
		name = coalesce(excluded.name, s.name),
		plugin_version = coalesce(excluded.plugin_version, s.plugin_version),
		status = coalesce(excluded.status, s.status),
		players_online = coalesce(excluded.players_online, s.players_online),
		players_max = coalesce(excluded.players_max, s.players_max),
		tps = coalesce(excluded.tps, s.tps),
		motd = coalesce(excluded.motd, s.motd),
		version = coalesce(excluded.version, s.version),
		extra = CASE WHEN excluded.extra IS NULL THEN s.extra ELSE coalesce(s.extra, '{}'::jsonb) || excluded.extra END,
		last_seen = excluded.last_seen,
		stats_updated_at = coalesce(excluded.stats_updated_at, s.stats_updated_at)
		WHERE s.token_id = excluded.token_id
	RETURNING s.players_online, s.players_max, s.tps, s.status, coalesce(octet_length(s.extra::text), 0)
	INTO v_online, v_max, v_tps, v_status, v_after;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'not the owner' USING ERRCODE = 'PNOWN';
	END IF;

	IF p_update THEN
		WITH dropped AS (DELETE FROM server_samples WHERE server_samples.server_uuid = p_uuid AND server_samples.at < p_history_before)
		INSERT INTO server_samples AS m (server_uuid, at, players_online, players_max, tps, online)
		VALUES (p_uuid, p_now, v_online, v_max, v_tps, v_status IS NOT DISTINCT FROM 'online')
		ON CONFLICT (server_uuid, minute) DO UPDATE SET
			at = greatest(m.at, excluded.at),
			players_online = greatest(m.players_online, excluded.players_online),
			players_max = CASE WHEN excluded.at >= m.at THEN excluded.players_max ELSE m.players_max END,
			tps = CASE WHEN excluded.at >= m.at THEN excluded.tps ELSE m.tps END,
			online = CASE WHEN excluded.at >= m.at THEN excluded.online ELSE m.online END;
	END IF;

	PERFORM pennant_push_finish(v_token, v_after > v_before, p_max_bytes, p_now, p_last_used_before);
	RETURN 'new';
END $$;
