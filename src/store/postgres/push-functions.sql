-- A signed push on PostgreSQL, whole: the functions src/store/postgres/pg-push.ts
-- calls, one call a push, so that a push is one statement (its own
-- transaction) and one round trip. openPostgres applies this file after the
-- migrations, under the same advisory lock (MIGRATION_LOCK), with CREATE OR
-- REPLACE: the live definition is always this file's. (Migrations 0001 and
-- 0006 created earlier versions; they stay as the history of databases that
-- ran them.) Each statement inside reads a snapshot of its own (READ
-- COMMITTED), and every lock is taken in the same order: the record's row,
-- then its token's, so that two pushes cannot each hold what the other waits
-- for (a new record has no row to hold yet). How each rule holds while pushes
-- run at once on other connections and instances (SQLite's single writer
-- serialises them; src/store/sqlite-push.ts is the same rules on SQLite):
-- - the replay key is inserted with ON CONFLICT, which waits for a
--   transaction inserting the same key and then finds it: of two identical
--   pushes, one is applied and the other is the duplicate (pennant_push_key);
-- - a record is claimed by an upsert that updates only the owner's row: of
--   tokens racing for a new record one owns it, the others get PNOWN;
-- - what is counted per token (its records, its JSON bytes) is counted after
--   locking the token's row, so pushes of one token that create records or
--   grow them take turns; the other pushes never wait on that row;
-- - open registration counts under an advisory lock (pennant_push_token).
-- A refusal raises an error of class PN (pg-push.ts reads it), which rolls
-- the whole call back: a refused push stores nothing.
-- The rules' constants (how long a token idles, a history sample lives, a last
-- use stays fresh) stay in TypeScript (records.ts): the calls pass the times they give.
-- Statements are separated as in a migration.

-- Deletes the tokens open registration made that have not pushed since
-- p_idle_before, with their records; returns how many. Under the registration
-- lock ("pnnr" in ASCII), held to the end of the transaction, as every count of
-- those tokens is; the idle tokens are locked first (FOR UPDATE reads a row
-- again once a push that held it commits), so a token that pushed meanwhile is kept.
CREATE OR REPLACE FUNCTION pennant_expire_idle_registrations(p_idle_before int8) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	v_idle int8[];
BEGIN
	PERFORM pg_advisory_xact_lock(1886285426);
	SELECT coalesce(array_agg(t.id), '{}') INTO v_idle FROM (
		SELECT tokens.id FROM tokens
		WHERE tokens.origin = 'registration' AND tokens.revoked_at IS NULL
			AND coalesce(tokens.last_used_at, tokens.created_at) < p_idle_before
		FOR UPDATE
	) AS t;
	IF cardinality(v_idle) = 0 THEN
		RETURN 0;
	END IF;
	DELETE FROM plugins WHERE plugins.token_id = ANY (v_idle);
	DELETE FROM servers WHERE servers.token_id = ANY (v_idle);
	DELETE FROM tokens WHERE tokens.id = ANY (v_idle);
	RETURN cardinality(v_idle);
END $$;

--> statement-breakpoint

-- The first steps of every push: sweeps the expired replay keys when asked
-- (rows another push is deleting are skipped, not waited for), then inserts
-- the push's replay key, or takes over an expired row of it. The key's expiry
-- is the push's own or its timestamp plus the widest window any instance
-- recorded (replay_memory), whichever is later. False when this exact push is
-- already remembered (a duplicate: nothing more to do); raises PNRPL when its
-- key is held by another request (a signature reused elsewhere).
CREATE OR REPLACE FUNCTION pennant_push_key(p_sweep boolean, p_now int8, p_key text, p_fingerprint text, p_expires_at int8, p_timestamp_ms int8)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	v_remembered text;
BEGIN
	IF p_sweep THEN
		DELETE FROM used_signatures WHERE used_signatures.signature IN (
			SELECT u.signature FROM used_signatures AS u WHERE u.expires_at < p_now FOR UPDATE SKIP LOCKED);
	END IF;
	INSERT INTO used_signatures (signature, fingerprint, expires_at)
	VALUES (p_key, p_fingerprint, greatest(p_expires_at, p_timestamp_ms
		+ coalesce((SELECT replay_memory.clock_skew_ms FROM replay_memory WHERE replay_memory.id = 1), 0)))
	ON CONFLICT (signature) DO UPDATE SET fingerprint = excluded.fingerprint, expires_at = excluded.expires_at
		WHERE used_signatures.expires_at < p_now;
	IF FOUND THEN
		RETURN true;
	END IF;
	SELECT used_signatures.fingerprint INTO v_remembered FROM used_signatures
	WHERE used_signatures.signature = p_key AND used_signatures.expires_at >= p_now;
	IF v_remembered = p_fingerprint THEN
		RETURN false;
	END IF;
	RAISE EXCEPTION 'this signature was already accepted for another request' USING ERRCODE = 'PNRPL';
END $$;

--> statement-breakpoint

-- The id of the pushing token: p_token_id, or for an unknown token under open
-- registration the token it gets. Under the registration lock: a push of the
-- same new token that registered it while this one waited makes this push
-- that token's; idle registrations are expired before counting. Raises PNREG
-- when open registration has made p_registration_max tokens.
CREATE OR REPLACE FUNCTION pennant_push_token(p_token_id int8, p_hash text, p_now int8, p_registration_max integer, p_idle_before int8)
RETURNS int8
LANGUAGE plpgsql AS $$
DECLARE
	v_id int8;
BEGIN
	IF p_token_id IS NOT NULL THEN
		RETURN p_token_id;
	END IF;
	PERFORM pg_advisory_xact_lock(1886285426);
	SELECT tokens.id INTO v_id FROM tokens WHERE tokens.hash = p_hash;
	IF FOUND THEN
		RETURN v_id;
	END IF;
	PERFORM pennant_expire_idle_registrations(p_idle_before);
	IF (SELECT count(*) FROM tokens WHERE tokens.origin = 'registration') >= p_registration_max THEN
		RAISE EXCEPTION 'open registration is full' USING ERRCODE = 'PNREG';
	END IF;
	INSERT INTO tokens (hash, scope, label, origin, created_at)
	VALUES (p_hash, 'all', 'self-registered', 'registration', p_now)
	RETURNING tokens.id INTO v_id;
	RETURN v_id;
END $$;

--> statement-breakpoint

-- The first steps of every push, up to its write: its replay key
-- (pennant_push_key), its token (pennant_push_token), and its record's
-- owner: another token's record raises PNOWN. A new record is counted against
-- p_max_records (PNLIM) with its token's row locked, so that pushes of one
-- token creating records take turns. o_token is NULL for a duplicate (nothing
-- more to do); o_before is the record's JSON bytes as they stand (0 for a new one).
CREATE OR REPLACE FUNCTION pennant_push_start(
	p_sweep boolean, p_now int8, p_key text, p_fingerprint text, p_expires_at int8, p_timestamp_ms int8,
	p_token_id int8, p_token_hash text, p_registration_max integer, p_idle_before int8,
	p_kind text, p_uuid text, p_max_records integer, OUT o_token int8, OUT o_before int8)
LANGUAGE plpgsql AS $$
DECLARE
	v_owner int8;
	v_owned int8;
BEGIN
	IF NOT pennant_push_key(p_sweep, p_now, p_key, p_fingerprint, p_expires_at, p_timestamp_ms) THEN
		RETURN;
	END IF;
	o_token := pennant_push_token(p_token_id, p_token_hash, p_now, p_registration_max, p_idle_before);
	IF p_kind = 'server' THEN
		SELECT servers.token_id, coalesce(octet_length(servers.extra::text), 0) INTO v_owner, o_before
		FROM servers WHERE servers.uuid = p_uuid;
	ELSE
		SELECT plugins.token_id, octet_length(plugins.meta::text) + octet_length(plugins.stats::text) INTO v_owner, o_before
		FROM plugins WHERE plugins.uuid = p_uuid;
	END IF;
	IF v_owner <> o_token THEN
		RAISE EXCEPTION 'not the owner' USING ERRCODE = 'PNOWN';
	END IF;
	IF v_owner IS NULL THEN
		o_before := 0;
		PERFORM 1 FROM tokens WHERE tokens.id = o_token FOR UPDATE;
		-- This record left out: another push of the token may have just created it.
		IF p_kind = 'server' THEN
			SELECT count(*) INTO v_owned FROM servers WHERE servers.token_id = o_token AND servers.uuid <> p_uuid;
		ELSE
			SELECT count(*) INTO v_owned FROM plugins WHERE plugins.token_id = o_token AND plugins.uuid <> p_uuid;
		END IF;
		IF v_owned >= p_max_records THEN
			RAISE EXCEPTION 'record limit' USING ERRCODE = 'PNLIM';
		END IF;
	END IF;
END $$;

--> statement-breakpoint

-- The last steps of a push whose record is written: when the record grew
-- (only then can it take its token over), its token's row is locked and the
-- JSON bytes of every record the token owns are counted (as each column
-- writes its JSON out); over p_max_bytes raises PNBYT with that count as its
-- detail. Then moves the token's last use to p_now once the stored one is
-- older than p_last_used_before.
CREATE OR REPLACE FUNCTION pennant_push_finish(p_token int8, p_grew boolean, p_max_bytes int8, p_now int8, p_last_used_before int8)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	v_stored int8;
BEGIN
	IF p_grew THEN
		PERFORM 1 FROM tokens WHERE tokens.id = p_token FOR UPDATE;
		SELECT
			(SELECT coalesce(sum(octet_length(plugins.meta::text) + octet_length(plugins.stats::text)), 0) FROM plugins WHERE plugins.token_id = p_token)
			+ (SELECT coalesce(sum(coalesce(octet_length(servers.extra::text), 0)), 0) FROM servers WHERE servers.token_id = p_token)
		INTO v_stored;
		IF v_stored > p_max_bytes THEN
			RAISE EXCEPTION 'storage limit' USING ERRCODE = 'PNBYT', DETAIL = v_stored::text;
		END IF;
	END IF;
	UPDATE tokens SET last_used_at = p_now
	WHERE tokens.id = p_token AND (tokens.last_used_at IS NULL OR tokens.last_used_at < p_last_used_before);
END $$;

--> statement-breakpoint

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

--> statement-breakpoint

-- A plugin's push as one call, as pennant_server_push: each field passed
-- (not NULL) replaces the stored value whole.
CREATE OR REPLACE FUNCTION pennant_plugin_push(
	p_sweep boolean, p_now int8, p_key text, p_fingerprint text, p_expires_at int8, p_timestamp_ms int8,
	p_token_id int8, p_token_hash text, p_registration_max integer, p_idle_before int8,
	p_max_bytes int8, p_last_used_before int8, p_max_records integer,
	p_uuid text, p_name text, p_version text, p_stats jsonb, p_meta jsonb, p_minecraft_versions jsonb, p_server_software jsonb)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	v_token int8;
	v_before int8;
	v_after int8;
BEGIN
	SELECT o_token, o_before INTO v_token, v_before FROM pennant_push_start(p_sweep, p_now, p_key, p_fingerprint, p_expires_at,
		p_timestamp_ms, p_token_id, p_token_hash, p_registration_max, p_idle_before, 'plugin', p_uuid, p_max_records);
	IF v_token IS NULL THEN
		RETURN 'duplicate';
	END IF;

	INSERT INTO plugins AS p (uuid, token_id, name, version, stats, meta, minecraft_versions, server_software, first_seen, last_seen)
	VALUES (p_uuid, v_token, p_name, p_version, coalesce(p_stats, '{}'::jsonb), coalesce(p_meta, '{}'::jsonb),
		coalesce(p_minecraft_versions, '[]'::jsonb), coalesce(p_server_software, '[]'::jsonb), p_now, p_now)
	ON CONFLICT (uuid) DO UPDATE SET
		name = coalesce(p_name, p.name),
		version = coalesce(p_version, p.version),
		stats = coalesce(p_stats, p.stats),
		meta = coalesce(p_meta, p.meta),
		minecraft_versions = coalesce(p_minecraft_versions, p.minecraft_versions),
		server_software = coalesce(p_server_software, p.server_software),
		last_seen = excluded.last_seen
		WHERE p.token_id = excluded.token_id
	RETURNING octet_length(p.meta::text) + octet_length(p.stats::text) INTO v_after;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'not the owner' USING ERRCODE = 'PNOWN';
	END IF;

	PERFORM pennant_push_finish(v_token, v_after > v_before, p_max_bytes, p_now, p_last_used_before);
	RETURN 'new';
END $$;
