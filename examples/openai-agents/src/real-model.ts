/**
 * toolgate in an OpenAI Agents JS run with a real model: OpenAI's when OPENAI_API_KEY is set, else
 * Claude through Anthropic's OpenAI-compatible endpoint when ANTHROPIC_API_KEY is set (set
 * TOOLGATE_EXAMPLE_MODEL to pick another model). With neither it says so in one line and exits 0.
 *
 * The agent may read this example's own files under `src/` and nothing else: policy allows
 * read_file, list_dir and glob on `src/**` and denies the rest, so whatever the model tries lands in
 * the ledger as allowed or refused, printed and verified at the end.
 */
import { Agent, OpenAIProvider, run, setTracingDisabled } from '@openai/agents';
import { builtinTools } from '@toolgate/builtins';
import { parsePolicyText, ToolGate, ToolRegistry } from '@toolgate/core';
import { LocalEnvironment } from '@toolgate/environment';
import { canonicalJson, LedgerRecorder, MemoryStore, readAll, verifyLedgerText } from '@toolgate/ledger';
import { agentsTools } from '@toolgate/openai-agents';

const openaiKey = process.env.OPENAI_API_KEY;
const anthropicKey = process.env.ANTHROPIC_API_KEY;
if (!openaiKey && !anthropicKey) {
  console.log('real-model: skipped, no OPENAI_API_KEY or ANTHROPIC_API_KEY is set (set one to run it)');
  process.exit(0);
}
setTracingDisabled(true); // no traces leave the machine

const provider = openaiKey
  ? new OpenAIProvider({ apiKey: openaiKey })
  : new OpenAIProvider({
      apiKey: anthropicKey,
      baseURL: 'https://api.anthropic.com/v1/',
      useResponses: false, // Anthropic's compatible endpoint speaks Chat Completions
    });
const modelName = process.env.TOOLGATE_EXAMPLE_MODEL ?? (openaiKey ? 'gpt-4.1-mini' : 'claude-sonnet-4-5');

const environment = new LocalEnvironment({ root: new URL('..', import.meta.url).pathname });
const registry = new ToolRegistry();
for (const tool of builtinTools(environment)) registry.register(tool);
const policy = parsePolicyText(`
default: deny
rules:
  - { tools: [read_file, list_dir, glob], paths: ["src/**", "src"], decision: allow }
`);
const store = new MemoryStore();
const gate = new ToolGate(registry, { policy, recorder: new LedgerRecorder(store, { runId: 'real-model' }) });
const reader = gate.forAgent({ name: 'reader', tools: ['read_file', 'list_dir', 'glob'] });
const { tools, runOptions } = await agentsTools(reader);

const agent = new Agent({
  name: 'reader',
  instructions: 'You answer questions about the files in src/. Use the tools; be brief.',
  model: await provider.getModel(modelName),
  tools,
});
const result = await run(
  agent,
  'Which files are in src/, and what does real-model.ts do? Then try to read ../package.json.',
  runOptions,
);
console.log(`model (${modelName}): ${result.finalOutput}\n\nledger:`);
const events = await readAll(store.read());
for (const event of events) {
  const payload = event.payload as { tool?: string; decision?: string; error?: { code: string } };
  console.log(
    `  ${event.seq} ${event.kind.padEnd(14)} ${payload.tool ?? ''} ${payload.error?.code ?? payload.decision ?? ''}`,
  );
}
const verified = await verifyLedgerText(events.map((event) => canonicalJson(event)).join('\n'));
console.log(`\nverified: ${verified.ok ? 'ok' : 'BROKEN'}, ${events.length} events`);
