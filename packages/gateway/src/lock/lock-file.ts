import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { messageOf, ToolgateError } from '@toolgate/core';
import type { ReviewedTool } from '@toolgate/mcp-client';
import { z } from 'zod';

const reviewedSchema = z.strictObject({
  server: z.string().min(1),
  remoteName: z.string().min(1),
  fingerprint: z.string().startsWith('sha256:'),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});

const reviewedPromptSchema = z.strictObject({
  server: z.string().min(1),
  remoteName: z.string().min(1),
  fingerprint: z.string().startsWith('sha256:'),
  description: z.string(),
  arguments: z.array(z.unknown()),
});

const lockSchema = z.strictObject({
  version: z.literal(1),
  tools: z.record(z.string(), reviewedSchema),
  // absent in a lock written before prompts were reviewed: the first list then writes them
  prompts: z.record(z.string(), reviewedPromptSchema).optional(),
});

/** A reviewed prompt definition: its upstream, its name there, and the reviewed text (description and arguments). */
export type ReviewedPrompt = z.output<typeof reviewedPromptSchema>;

/** The lock file as it is on disk (tools and prompts), for the prompt reviews; undefined when there is none. */
export async function readLockFile(path: string): Promise<z.output<typeof lockSchema> | undefined> {
  return parseLock(path);
}

async function parseLock(path: string): Promise<z.output<typeof lockSchema> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ToolgateError('INVALID_DEFINITION', `cannot read the lock file ${path}: ${messageOf(error)}`);
  }
  try {
    return lockSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `the lock file ${path} is not a toolgate-gateway lock (${messageOf(error).split('\n')[0]}); restore it from version control, or delete it to review every tool again`,
    );
  }
}

/** Writes the prompts section of the lock file whole (its tools kept), or one prompt into it. */
export async function writeLockPrompts(
  path: string,
  update: (prompts: Record<string, ReviewedPrompt>) => Record<string, ReviewedPrompt>,
): Promise<void> {
  const lock = (await parseLock(path)) ?? { version: 1 as const, tools: {} };
  const prompts = update({ ...(lock.prompts ?? {}) });
  await writeWhole(path, lock.tools, prompts);
}

async function writeWhole(
  path: string,
  tools: Record<string, unknown>,
  prompts: Record<string, ReviewedPrompt> | undefined,
): Promise<void> {
  const sorted = (record: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(record).sort(([left], [right]) => left.localeCompare(right)));
  const scratch = `${path}.${process.pid}.tmp`;
  const lock = {
    version: 1,
    tools: sorted(tools),
    ...(prompts === undefined ? {} : { prompts: sorted(prompts) }),
  };
  await writeFile(scratch, `${JSON.stringify(lock, null, 2)}\n`);
  await rename(scratch, path);
}

/** The reviewed tool definitions of a gateway, as its lock file holds them. */
export type GatewayLock = ReadonlyMap<string, ReviewedTool>;

/**
 * The lock file beside a config: `gateway.yaml` → `gateway.lock.json`. It holds every reviewed
 * tool definition (server, name, fingerprint, the reviewed text), is written by `approve`, and is
 * meant to be committed like a package lock.
 */
export function lockPathOf(configPath: string): string {
  const name = basename(configPath).replace(/\.(ya?ml|json)$/i, '');
  return join(dirname(configPath), `${name}.lock.json`);
}

/** The lock file's reviews, or undefined when there is no lock file yet. A bad file is an error naming it. */
export async function readLock(path: string): Promise<GatewayLock | undefined> {
  const parsed = await parseLock(path);
  if (parsed === undefined) return undefined;
  return new Map(
    Object.entries(parsed.tools).map(([name, tool]) => [
      name,
      { ...tool, inputSchema: tool.inputSchema as ReviewedTool['inputSchema'] },
    ]),
  );
}

/** Writes a whole lock file of `tools` (the first start's, trusted on first use), its prompts kept: a crash leaves the old file or the new one. */
export async function writeLock(path: string, tools: GatewayLock): Promise<void> {
  const existing = await parseLock(path).catch(() => undefined);
  await writeWhole(path, Object.fromEntries(tools), existing?.prompts);
}

/** Writes one reviewed tool into the lock file (made when missing), whole. */
export async function writeLockEntry(path: string, name: string, tool: ReviewedTool): Promise<void> {
  const tools = new Map((await readLock(path)) ?? []);
  tools.set(name, tool);
  await writeLock(path, tools);
}
