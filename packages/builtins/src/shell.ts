import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capField, type FieldLimits } from './caps.js';
import { shellSubject } from './command-subject.js';
import { pathSubject } from './path-subject.js';
import { timeBeforeDeadline } from './time-left.js';

/** What the shell tool adds to the caps: its default and longest timeouts. */
export interface ShellOptions extends Pick<FieldLimits, 'maxFieldChars'> {
  /**
   * A command's time when the model asks none. Unset: the time left to its call's deadline (the
   * caller's budget), and 30,000 ms for a call with no deadline.
   */
  shellTimeoutMs?: number;
  /** The longest timeout a model may ask for, and the longest a command runs. Default 300,000 ms. */
  maxShellTimeoutMs: number;
}

/** A command's time for a call with no deadline, when the model asks none and none is configured. */
const noDeadlineTimeoutMs = 30_000;

/**
 * The command's time: what was asked (else the configured default, else the caller's time), at
 * most `maxShellTimeoutMs`, and ending a moment before the caller's deadline — so the command is
 * killed, and its output says `timedOut`, while its caller still waits for it. A budget shorter
 * than that moment is left to the gate (its signal kills the command).
 */
function commandTimeoutMs(asked: number | undefined, options: ShellOptions, deadline: number): number {
  const before = timeBeforeDeadline(deadline);
  const chosen =
    asked ??
    options.shellTimeoutMs ??
    (Number.isFinite(deadline) ? Number.POSITIVE_INFINITY : noDeadlineTimeoutMs);
  const bounded = Math.min(chosen, options.maxShellTimeoutMs);
  return before === undefined ? bounded : Math.min(bounded, before);
}

/** How the tool tells the model its default time. */
function defaultTimeText(options: ShellOptions): string {
  return options.shellTimeoutMs === undefined
    ? `Default: the time left to this call (${noDeadlineTimeoutMs} when it has no deadline)`
    : `Default ${options.shellTimeoutMs}`;
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
          `Kill it after this many milliseconds. ${defaultTimeText(options)}, at most ${options.maxShellTimeoutMs}.`,
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
        timeoutMs: commandTimeoutMs(timeoutMs, options, context.deadline),
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
