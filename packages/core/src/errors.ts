/**
 * The closed set of error codes. Every refusal and failure in toolgate carries one of these, so a
 * caller (or a model reading an error result) can branch on the code and read the message.
 */
export const toolgateErrorCodes = {
  /** A definition (tool, manifest, policy, config) is malformed; fix it before any agent runs. */
  INVALID_DEFINITION: 'a definition is malformed',
  /** An agent asked for a tool its manifest does not grant. */
  CAPABILITY_VIOLATION: 'tool not granted to the agent',
  /** No tool of that name is registered in-process or served by a resolver. */
  UNKNOWN_TOOL: 'no such tool',
  /** The parameters do not match the tool's input schema. */
  INVALID_PARAMETERS: 'parameters do not match the schema',
  /** Policy refused the call, or an `ask` was not approved. */
  PERMISSION_DENIED: 'policy refused the call',
  /** The tool ran and failed (threw, rejected, or a remote server reported an error). */
  TOOL_FAILED: 'the tool failed',
  /** The tool returned something that is not JSON (a function, a bigint, a cycle …). */
  INVALID_OUTPUT: 'the tool output is not JSON',
  /** A tool exceeded its time budget. */
  TIMEOUT: 'the tool took too long',
  /** The caller cancelled the call (its abort signal fired) before the tool finished. */
  CANCELLED: 'the call was cancelled',
  /** A path resolves outside the environment's root (traversal, symlink, sibling prefix …). */
  PATH_OUTSIDE_ROOT: 'path escapes the workspace',
  /** A path or argument is malformed (NUL byte, wrong type of file, …). */
  INVALID_PATH: 'path is malformed',
  /** A file or directory does not exist. */
  NOT_FOUND: 'no such file or directory',
  /** A network request was refused by the environment's network rules. */
  NETWORK_REFUSED: 'network request refused',
  /** A network request failed (connection, protocol, size). */
  NETWORK_FAILED: 'network request failed',
  /** A command could not be run. */
  COMMAND_FAILED: 'command failed to run',
  /** A remote tool server could not be reached, died, or spoke garbage. */
  TRANSPORT_FAILED: 'tool server unreachable or broken',
  /** A remote tool changed its description or schema since it was approved. */
  TOOL_CHANGED: 'remote tool changed since approval',
  /** An event cannot be appended to a ledger: a bad kind, an empty name, a payload that is not JSON. */
  INVALID_EVENT: 'the event is malformed',
  /** A ledger failed verification, or could not be read or written. */
  LEDGER_CORRUPT: 'ledger failed verification',
  /** A ledger is held by another writer, or was written by a newer schema version. */
  LEDGER_UNAVAILABLE: 'ledger cannot be opened',
  /** A replayed run asked for a call that differs from the recording. */
  REPLAY_DIVERGED: 'replay differs from the recording',
  /** A caller made calls faster, or more at once, than its limit allows; wait and call again. */
  RATE_LIMITED: 'too many calls',
} as const;

/** One of toolgate's error codes; see `toolgateErrorCodes`. */
export type ToolgateErrorCode = keyof typeof toolgateErrorCodes;

/**
 * The one error type of toolgate. Its `code` is from a closed set; its message says what happened,
 * to what, and what to do.
 *
 * @example
 * throw new ToolgateError('UNKNOWN_TOOL', 'no tool "orcale" is registered; did you mean "oracle"?');
 */
export class ToolgateError extends Error {
  override readonly name: string = 'ToolgateError';
  readonly code: ToolgateErrorCode;

  constructor(code: ToolgateErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }

  /** True for any ToolgateError, including one thrown by another copy of this package. */
  static is(value: unknown): value is ToolgateError {
    if (value instanceof ToolgateError) return true;
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as { name?: unknown; code?: unknown };
    return (
      (candidate.name === 'ToolgateError' || candidate.name === 'CapabilityViolation') &&
      typeof candidate.code === 'string' &&
      candidate.code in toolgateErrorCodes
    );
  }
}

/**
 * Raised when an agent asks for a tool its manifest does not grant. It is raised before any
 * transport is touched, and carries what a caller needs to explain the refusal.
 */
export class CapabilityViolation extends ToolgateError {
  override readonly name = 'CapabilityViolation';

  constructor(
    readonly agent: string,
    readonly tool: string,
    readonly granted: readonly string[],
  ) {
    const grantedText = granted.length === 0 ? 'none' : granted.map((name) => `"${name}"`).join(', ');
    super(
      'CAPABILITY_VIOLATION',
      `agent "${agent}" is not granted tool ${JSON.stringify(tool)} (granted: ${grantedText}); ` +
        'add it to the agent manifest\'s "tools" to allow it',
    );
  }
}

/** The message of any thrown value, for folding failures into data. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
