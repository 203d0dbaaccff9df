import { eventsTable, headsTable, notifyChannel } from './tables.js';

/** The function every append calls with its drafts (see {@link groupCommitSchema}). */
export const sealFunction = 'toolgate_ledger_seal';
/** How many text fields stand for one draft in the array {@link sealFunction} takes. */
const draftFields = 10;
/** The objects of group commit, for `to_regclass` / `to_regprocedure`. */
export const groupCommitObjects = [`${sealFunction}(text,text[])`];

/**
 * Sealing in the database. `toolgate_ledger_seal(ledger, drafts)` takes a writer's drafts, each as
 * ten texts in a row of one array: its id, run, kind, `at`, and the parts of its canonical line
 * around what only the sealing transaction knows (its seq, the previous hash, and the default id
 * `runId:seq`). It switches its transaction to synchronous_commit off, takes the lock on the head
 * row, and seals each draft onto the head: the canonical line built from its parts, the SHA-256 chain
 * hash over the previous hash and the line without its hash (exactly `sealEvent`), a draft whose id
 * is stored getting the stored record. It returns each draft's seq and line, with the head it left.
 * Its caller commits at once (the commit does not wait for the flush, so the head lock is held for
 * the function's run and no longer) and then waits for the flush in a transaction of its own (see
 * `appendGrouped`): the flushes of writers waiting at the same moment are one.
 */
export const groupCommitSchema = `
CREATE OR REPLACE FUNCTION ${sealFunction}(target text, drafts text[])
RETURNS TABLE (seq bigint, line text, head_seq bigint, head_hash text) LANGUAGE plpgsql AS $$
DECLARE
  next bigint;
  prev text;
  base integer;
  stored_seq bigint;
  stored_line text;
  body text;
  digest text;
  wrote boolean := false;
  seqs bigint[] := '{}';
  lines text[] := '{}';
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT h.next_seq, h.hash INTO next, prev FROM ${headsTable} h WHERE h.ledger = target FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the head row of the ledger "%" is missing: it was deleted', target USING ERRCODE = 'XX001';
  END IF;
  FOR draft IN 0 .. cardinality(drafts) / ${draftFields} - 1 LOOP
    base := draft * ${draftFields};
    -- drafts[base + 1 ..]: id, run_id, kind, at, front, id_text, id_prefix, middle, tail, finish
    stored_seq := NULL;
    IF drafts[base + 1] IS NOT NULL THEN
      SELECT e.seq, e.line INTO stored_seq, stored_line FROM ${eventsTable} e
       WHERE e.ledger = target AND e.id = drafts[base + 1];
    END IF;
    IF stored_seq IS NULL THEN
      body := '"id":' || coalesce(drafts[base + 6], drafts[base + 7] || next || '"') || drafts[base + 8] || prev ||
        drafts[base + 9] || next || drafts[base + 10];
      digest := encode(sha256(convert_to(prev || drafts[base + 5] || body, 'UTF8')), 'hex');
      stored_line := drafts[base + 5] || '"hash":"' || digest || '",' || body;
      INSERT INTO ${eventsTable} (ledger, seq, id, run_id, kind, at, line)
        VALUES (target, next, coalesce(drafts[base + 1], drafts[base + 2] || ':' || next), drafts[base + 2],
          drafts[base + 3], drafts[base + 4], stored_line);
      stored_seq := next;
      next := next + 1;
      prev := digest;
      wrote := true;
    END IF;
    seqs := seqs || stored_seq;
    lines := lines || stored_line;
  END LOOP;
  IF wrote THEN
    UPDATE ${headsTable} h SET next_seq = next, hash = prev WHERE h.ledger = target;
    PERFORM pg_notify('${notifyChannel}', target);
  END IF;
  RETURN QUERY SELECT sealed.seq, sealed.line, next, prev FROM unnest(seqs, lines) AS sealed(seq, line);
END
$$;
`;
