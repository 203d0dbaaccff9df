import type { LedgerEvent } from '@toolgate/ledger';
import {
  type NoteKey,
  openNote,
  parseVerifierKey,
  type VerifiedSignature,
  verifyRecordProof,
} from '@toolgate/ledger/trust';
import type { ProofAnswer } from '../record-proofs.js';
import { element } from './dom.js';

/** What the page concluded about one record's proof: shown as one line under the record. */
interface ProofVerdict {
  readonly state: 'ok' | 'bad' | 'uncovered';
  readonly text: string;
}

/** Verdicts by seq (a checkpoint covers a fixed set of records; the details pane re-renders often). */
const verdicts = new Map<number, Promise<ProofVerdict | undefined>>();

/**
 * The line under a record in the details pane: its inclusion proof against the checkpoint the server
 * was given (`serve --checkpoint`), fetched from `/proof` and checked here, in the page, by the same
 * `verifyRecordProof` that `toolgate-ledger verify-proof` runs: the server's word is never taken.
 * Removed when the server has no checkpoint (or the page is a static export).
 */
export function proofLine(event: LedgerEvent): HTMLElement {
  const line = element(
    'div',
    { class: 'proof-line status-pending', data: { testid: 'proof' } },
    'checking the inclusion proof…',
  );
  let verdict = verdicts.get(event.seq);
  if (!verdict) {
    verdict = proofVerdict(event);
    verdicts.set(event.seq, verdict);
  }
  void verdict.then((found) => {
    if (!found) return line.remove();
    line.className = `proof-line status-${found.state === 'uncovered' ? 'pending' : found.state}`;
    line.textContent = found.text;
  });
  return line;
}

async function proofVerdict(event: LedgerEvent): Promise<ProofVerdict | undefined> {
  if (document.getElementById('ledger-data')) return undefined;
  let answer: ProofAnswer;
  try {
    const response = await fetch(`proof?seq=${event.seq}`);
    if (response.status === 404) return undefined;
    answer = (await response.json()) as ProofAnswer;
    if (!response.ok) throw new Error((answer as unknown as { error?: string }).error);
  } catch (error) {
    verdicts.delete(event.seq);
    return { state: 'bad', text: `✘ cannot get the proof of seq ${event.seq}: ${(error as Error).message}` };
  }
  const against = `checkpoint ${answer.checkpoint.path}`;
  if (answer.uncovered) return { state: 'uncovered', text: `◌ not covered: ${answer.uncovered}` };
  if (!answer.proof) {
    // No proof could be made: say first whether the checkpoint itself holds, as checked here.
    const unsigned = checkpointProblem(answer.checkpoint.note, answer.checkpoint.keys);
    return { state: 'bad', text: `✘ not proven against ${against}: ${unsigned ?? answer.problem}` };
  }
  const result = verifyRecordProof({
    proof: answer.proof,
    checkpoint: answer.checkpoint.note,
    keys: answer.checkpoint.keys,
  });
  if (!result.ok) return { state: 'bad', text: `✘ not proven against ${against}: ${result.reason}` };
  const proven = JSON.parse(answer.proof.record) as { seq?: unknown; hash?: unknown };
  if (proven.seq !== event.seq || proven.hash !== event.hash) {
    return {
      state: 'bad',
      text: `✘ not proven against ${against}: the proof is of a record with hash ${String(proven.hash)}, not of the record shown (${event.hash})`,
    };
  }
  const { checkpoint, signatures } = result.proven!;
  return {
    state: 'ok',
    text:
      `✔ included in ${against}: seq ${event.seq} of the ${checkpoint.size} records of ${checkpoint.origin}, ` +
      `signed by ${signedBy(signatures)}; proof checked in this page`,
  };
}

/** Why the checkpoint's signatures do not verify with the keys, or undefined when they do. */
function checkpointProblem(note: string, keyTexts: readonly string[]): string | undefined {
  const keys: NoteKey[] = [];
  for (const text of keyTexts) {
    const parsed = parseVerifierKey(text);
    if (!parsed.ok) return `the key ${text}: ${parsed.reason}`;
    keys.push(parsed.value);
  }
  const opened = openNote(note, keys);
  return opened.ok ? undefined : `the checkpoint: ${opened.reason}`;
}

function signedBy(signatures: readonly VerifiedSignature[]): string {
  const logs = signatures
    .filter((signature) => signature.kind === 'log')
    .map((signature) => `"${signature.name}"`);
  const witnesses = signatures
    .filter((signature) => signature.kind === 'witness')
    .map(
      (signature) => `"${signature.name}" at ${new Date((signature.timestamp ?? 0) * 1000).toISOString()}`,
    );
  return `${logs.join(', ')}${witnesses.length ? `, cosigned by ${witnesses.join(', ')}` : ''}`;
}
