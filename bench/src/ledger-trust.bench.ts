/**
 * What trust in the ledger costs:
 * 1. recording a call with the Merkle tree kept current (its head taken after every call) against
 *    the chain alone (≤ 1.2×);
 * 2. an inclusion proof of one record of a 10,000-record ledger: making it, and checking it with
 *    `verifyRecordProof` against a signed checkpoint (printed).
 */
import {
  LedgerRecorder,
  MemoryStore,
  readAll,
  recordLeaf,
  recordLine,
  steppingClock,
} from '@toolgate/ledger';
import {
  formatCheckpoint,
  generateNoteKeys,
  inclusionProof,
  parseSignerKey,
  type RecordProof,
  recordProofFormat,
  rootOf,
  signNote,
  verifyRecordProof,
} from '@toolgate/ledger/trust';
import { compareLatency } from './compare.js';

// 1. Recording with the tree on -------------------------------------------------------------------
const parameters = { seed: 'moss on the north stones', depth: 3 };
const output = { omen: 'the stone remembers what the river forgot', confidence: 0.42 };

type Tree = 'off' | 'kept' | 'head-per-call';

/** Records calls, a run of 1,000 a ledger; with the tree kept, its head is taken at each run's end. */
function recording(tree: Tree): () => Promise<void> {
  let calls = 0;
  let store = new MemoryStore({ clock: steppingClock() });
  let recorder = new LedgerRecorder(store, { runId: 'bench' });
  const fresh = async () => {
    if (tree !== 'off') await store.treeHead(); // the run's checkpoint; also makes the tree live
    store = new MemoryStore({ clock: steppingClock() });
    recorder = new LedgerRecorder(store, { runId: 'bench' });
    if (tree !== 'off') await store.treeHead();
  };
  return async () => {
    if (++calls % 1_000 === 0) await fresh();
    const base = { callId: `call-${calls}`, agent: 'fortune-teller', tool: 'oracle' };
    await recorder.toolCalled({ ...base, parameters });
    await recorder.policyDecided({
      ...base,
      decision: 'allow',
      verdict: { decision: 'allow', rule: 0, reason: 'harmless' },
      reason: 'harmless',
    });
    await recorder.toolReturned({ ...base, isError: false, output, durationMs: 1 });
    if (tree === 'head-per-call') await store.treeHead();
  };
}

await compareLatency({
  id: 'ledger-merkle-append',
  title: 'ledger: recording a call with the Merkle tree kept, against the chain alone',
  what:
    'One call (3 records) through `LedgerRecorder` into a `MemoryStore` with its RFC 9162 tree kept ' +
    '(each sealed record hashed in: a leaf hash and, amortised, one node hash; the head taken at the end ' +
    'of each run of 1,000 calls, as a checkpoint would) against the chain alone. Printed beside: the tree ' +
    'head taken after every call.',
  anchor: { name: 'chain alone, 3 records', fn: recording('off') },
  subject: { name: 'chain + Merkle tree kept, 3 records', fn: recording('kept') },
  others: [{ name: 'chain + tree head after every call', fn: recording('head-per-call') }],
  maxRatio: 1.2,
});

// 2. Proofs ---------------------------------------------------------------------------------------
const records = 10_000;
const store = new MemoryStore({ clock: steppingClock() });
for (let index = 0; index < records; index++) {
  await store.append({
    runId: 'bench',
    kind: 'tool.called',
    actor: 'teller',
    payload: { index, parameters },
  });
}
const events = await readAll(store.read());
const leaves = events.map(recordLeaf);
const keys = generateNoteKeys('bench.example/agents');
const signer = parseSignerKey(keys.signerKey);
if (!signer.ok) throw new Error(signer.reason);
const checkpoint = signNote(
  formatCheckpoint({ origin: 'bench.example/agents', size: records, root: rootOf(leaves), extensions: [] }),
  signer.value,
);
let next = 0;
function proofOf(seq: number): RecordProof {
  return {
    format: recordProofFormat,
    seq,
    treeSize: records,
    record: recordLine(events[seq]!),
    hashes: inclusionProof(leaves, seq, records).map((hash) => Buffer.from(hash).toString('base64')),
  };
}
const proofs = Array.from({ length: 64 }, (_, index) => proofOf((index * 157) % records));

await compareLatency({
  id: 'ledger-proof',
  title: 'ledger: an inclusion proof of one record of 10,000, made and checked',
  what:
    'Making an inclusion proof of one record from the 10,000 leaf hashes (what `toolgate-ledger prove` does ' +
    'after reading the ledger), against checking one with `verifyRecordProof` (the checkpoint signature, ' +
    'the record hashed, 14 node hashes).',
  anchor: {
    name: 'verifyRecordProof (signature + path)',
    fn: () => verifyRecordProof({ proof: proofs[next++ % 64]!, checkpoint, keys: [keys.verifierKey] }),
  },
  subject: { name: 'inclusionProof over 10,000 leaves', fn: () => proofOf(next++ % records) },
});
