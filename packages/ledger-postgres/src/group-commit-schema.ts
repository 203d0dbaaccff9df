import { eventsTable, headsTable, notifyChannel } from './tables.js';

/**
 * The table of drafts waiting to be sealed. UNLOGGED: putting a draft there costs no flush, and a
 * crash empties it (the writers whose drafts were in it were told their append failed). Each draft
 * comes as the parts of its canonical line around the seq and the previous hash, which only the
 * writer holding the head lock knows.
 */
export const waitingTable = 'toolgate_ledger_waiting';
/**
 * A table each append writes one row to and deletes it again, in a transaction of its own with
 * synchronous_commit on: its commit waits for the log to be flushed past the seal, and the flushes
 * of writers doing so at once are one (PostgreSQL's own group flush).
 */
export const flushTable = 'toolgate_ledger_flushes';
/** The function every append calls once its drafts wait (see {@link groupCommitSchema}). */
export const appendFunction = 'toolgate_ledger_append';
/** The objects of group commit, for `to_regclass` / `to_regprocedure`. */
export const groupCommitObjects = [
  waitingTable,
  `${waitingTable}_ledger`,
  flushTable,
  `${appendFunction}(text)`,
];

// \`live\`: the pids of the server's backends, read once per seal (pg_stat_activity, a view over
// every backend, once per draft held the head lock for as long as the drafts were many).
const alive = (owner: string, epoch: string) =>
  `(${epoch} = pg_postmaster_start_time() AND ${owner} = ANY (live))`;

/**
 * Group commit across writer processes, in the database. `toolgate_ledger_append(ledger)` first
 * waits, beside the other waiters, for the writer holding the head lock (its lock taken FOR SHARE in
 * a subtransaction that the exception ends at once). If that writer sealed this session's drafts,
 * it only picks them up. Otherwise it takes the head lock and seals every waiting draft of a live
 * session, in the order they came: the canonical line built from its parts, the SHA-256 chain hash
 * over the previous hash and the line without its hash (exactly `sealEvent`), a draft whose id is
 * stored getting the stored record. Its caller's transaction commits them without waiting for the
 * flush (the head lock is free at once), and then waits for the flush through {@link flushTable}.
 */
export const groupCommitSchema = `
CREATE UNLOGGED TABLE IF NOT EXISTS ${waitingTable} (
  n bigserial PRIMARY KEY,
  ledger text NOT NULL,
  owner integer NOT NULL,
  epoch timestamptz NOT NULL,
  draft_id text,
  run_id text NOT NULL,
  kind text NOT NULL,
  at text NOT NULL,
  front text NOT NULL,
  id_text text,
  id_prefix text,
  middle text NOT NULL,
  tail text NOT NULL,
  finish text NOT NULL,
  seq bigint
);
CREATE INDEX IF NOT EXISTS ${waitingTable}_ledger ON ${waitingTable} (ledger, n);
CREATE TABLE IF NOT EXISTS ${flushTable} (owner integer NOT NULL);
CREATE OR REPLACE FUNCTION ${appendFunction}(target text)
RETURNS TABLE (n bigint, seq bigint, line text) LANGUAGE plpgsql AS $$
DECLARE
  me integer := pg_backend_pid();
  next bigint;
  prev text;
  draft record;
  stored bigint;
  body text;
  digest text;
  wrote boolean := false;
  live integer[];
BEGIN
  BEGIN
    PERFORM 1 FROM ${headsTable} h WHERE h.ledger = target FOR SHARE;
    RAISE EXCEPTION USING ERRCODE = 'P0001';
  EXCEPTION WHEN raise_exception THEN NULL;
  END;
  IF EXISTS (SELECT 1 FROM ${waitingTable} w WHERE w.ledger = target AND w.owner = me AND w.seq IS NULL) THEN
    SELECT h.next_seq, h.hash INTO next, prev FROM ${headsTable} h WHERE h.ledger = target FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'the head row of the ledger "%" is missing: it was deleted', target USING ERRCODE = 'XX001';
    END IF;
    SELECT array_agg(a.pid) INTO live FROM pg_stat_get_activity(NULL) a;
    FOR draft IN SELECT w.* FROM ${waitingTable} w WHERE w.ledger = target AND w.seq IS NULL ORDER BY w.n LOOP
      IF draft.owner <> me AND NOT ${alive('draft.owner', 'draft.epoch')} THEN
        DELETE FROM ${waitingTable} w WHERE w.n = draft.n;
        CONTINUE;
      END IF;
      stored := NULL;
      IF draft.draft_id IS NOT NULL THEN
        SELECT e.seq INTO stored FROM ${eventsTable} e WHERE e.ledger = target AND e.id = draft.draft_id;
      END IF;
      IF stored IS NULL THEN
        body := '"id":' || coalesce(draft.id_text, draft.id_prefix || next || '"') || draft.middle || prev ||
          draft.tail || next || draft.finish;
        digest := encode(sha256(convert_to(prev || draft.front || body, 'UTF8')), 'hex');
        INSERT INTO ${eventsTable} (ledger, seq, id, run_id, kind, at, line)
          VALUES (target, next, coalesce(draft.draft_id, draft.run_id || ':' || next), draft.run_id, draft.kind,
            draft.at, draft.front || '"hash":"' || digest || '",' || body);
        stored := next;
        next := next + 1;
        prev := digest;
        wrote := true;
      END IF;
      UPDATE ${waitingTable} w SET seq = stored WHERE w.n = draft.n;
    END LOOP;
    IF wrote THEN
      UPDATE ${headsTable} h SET next_seq = next, hash = prev WHERE h.ledger = target;
      PERFORM pg_notify('${notifyChannel}', target);
    END IF;
    DELETE FROM ${waitingTable} w
     WHERE w.ledger = target AND w.seq IS NOT NULL AND w.owner <> me AND NOT ${alive('w.owner', 'w.epoch')};
  END IF;
  RETURN QUERY
    DELETE FROM ${waitingTable} w USING ${eventsTable} e
     WHERE w.ledger = target AND w.owner = me AND w.seq IS NOT NULL AND e.ledger = target AND e.seq = w.seq
    RETURNING w.n, w.seq, e.line;
END
$$;
`;
