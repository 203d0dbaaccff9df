import { unsafeTokenPrefix } from './shell-words.js';

/**
 * What a command runs besides itself: another command (a wrapper such as `env` or `nice`), a shell
 * line (`sh -c`), code the gate cannot read (`python -c`), or nothing it can see.
 */
export type Unwrapped =
  | { readonly kind: 'runs'; readonly commands: readonly (readonly string[])[] }
  | { readonly kind: 'line'; readonly line: string; readonly shell: string }
  | { readonly kind: 'code'; readonly reason: string }
  | { readonly kind: 'none' };

/** A token standing for arguments a command gets only when it runs (from stdin, from `find`). */
export const laterArguments = `${unsafeTokenPrefix}arguments:supplied when it runs`;

/** A command that runs nothing besides itself. */
export const none: Unwrapped = { kind: 'none' };
