import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capField, type FieldLimits } from './caps.js';
import { shellSubject } from './command-subject.js';
import { pathSubject } from './path-subject.js';

/** What the shell tool adds to the caps: its default and longest timeouts. */
export interface ShellOptions extends Pick<FieldLimits, 'maxFieldChars'> {
  /** Default 30,000 ms. */
  shellTimeoutMs: number;
  /** The longest timeout a model may ask for. Default 300,000 ms. */
  maxShellTimeoutMs: number;
}

/** How long before the caller's deadline a command is killed, so its output still reaches the caller. */
const deadlineMarginMs = 1000;

/**
 * The command's time: what was asked (or the default), at most `maxShellTimeoutMs`, and ending a
 * moment before the caller's deadline — so the command is killed, and its output says `timedOut`,
 * while its caller still waits for it. A budget shorter than that moment is left to the gate.
 */
function commandTimeoutMs(asked: number, options: ShellOptions, deadline: number): number {
  const bounded = Math.min(asked, options.maxShellTimeoutMs);
  const left = Math.floor(deadline - Date.now()) - deadlineMarginMs;
  // with less than the margin left (or no deadline) the gate's own timeout ends the call: TIMEOUT
  return Number.isFinite(left) && left > 0 ? Math.min(bounded, left) : bounded;
}

/**
 * `shell { command, timeoutMs? }` → `{ exitCode, signal, timedOut, stdout, stderr, limit? }`: runs a
 * command line in the workspace (`limit`: the sandbox limit it ran into, when it ran into one). A non-zero exit is output, not an error. Not parallel-safe.
 * Cancelling the call kills the command with everything it started; its output is reported as
 * progress as it arrives (`progress`: characters so far, `message`: the new text). Policy sees every
 * command of the line (seen through wrappers) and every file it redirects to or from
 * ({@link shellSubject}); a line outside the subset dash and bash read alike is refused.
 */
export function shellTool(environment: Environment, options: ShellOptions) {
  return defineTool({
    name: 'shell',
    description:
      'Run a shell command line in the workspace root and return its exit code, stdout and stderr. It is killed, with everything it started, when it runs past its timeout.',
    input: z.object({
      command: z.string().min(1).describe('The command line, e.g. "npm test".'),
      timeoutMs: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe(
          `Kill it after this many milliseconds. Default ${options.shellTimeoutMs}, at most ${options.maxShellTimeoutMs}.`,
        ),
    }),
    policySubject: async ({ command }) => {
      const { commands, paths } = shellSubject(command);
      const resolved: string[] = [];
      for (const path of paths) resolved.push(...((await pathSubject(environment, path)).paths ?? []));
      return { commands, ...(resolved.length > 0 ? { paths: resolved } : {}) };
    },
    run: async ({ command, timeoutMs }, context) => {
      let received = 0;
      const result = await environment.exec(command, {
        timeoutMs: commandTimeoutMs(timeoutMs ?? options.shellTimeoutMs, options, context.deadline),
        signal: context.signal,
        // A sandbox with network "policy" asks this call's own policy about each destination: the
        // hosts rules that judge fetch, an ask put to the approver, every answer recorded.
        callId: context.callId,
        egressJudge: async ({ host }) => (await context.authorize({ hosts: [host] })).allowed,
        onOutput: ({ text }) => {
          received += text.length;
          context.reportProgress({ progress: received, message: text });
        },
      });
      return {
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        stdout: capField(result.stdout, options.maxFieldChars, result.stdoutOmittedBytes),
        stderr: capField(result.stderr, options.maxFieldChars, result.stderrOmittedBytes),
        // A sandbox limit the command ran into, named, with what to do (see SandboxLimits).
        ...(result.limit ? { limit: result.limit } : {}),
      };
    },
  });
}
