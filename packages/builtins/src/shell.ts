import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capField, type FieldLimits } from './caps.js';
import { commandSubject } from './command-subject.js';

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
 * `shell { command, timeoutMs? }` → `{ exitCode, signal, timedOut, stdout, stderr }`: runs a
 * command line in the workspace. A non-zero exit is output, not an error. Not parallel-safe.
 * Cancelling the call kills the command with everything it started; its output is reported as
 * progress as it arrives (`progress`: characters so far, `message`: the new text).
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
    policySubject: ({ command }) => ({ commands: commandSubject(command) }),
    run: async ({ command, timeoutMs }, context) => {
      let received = 0;
      const result = await environment.exec(command, {
        timeoutMs: commandTimeoutMs(timeoutMs ?? options.shellTimeoutMs, options, context.deadline),
        signal: context.signal,
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
      };
    },
  });
}
