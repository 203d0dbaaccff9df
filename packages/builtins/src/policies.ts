import { type Policy, RulePolicy } from '@toolgate/core';

/** The built-in tools that only read. */
const readTools = ['read_file', 'list_dir', 'glob', 'search_files', 'oracle'];

/**
 * Ready-made policies over the built-in tools' names.
 *
 * @example
 * const gate = new ToolGate(registry, { policy: policies.workspace(), approver });
 */
export const policies = {
  /** Allows every granted call. The grant is still the boundary. */
  allowAll: (): Policy => new RulePolicy({ default: 'allow', rules: [] }),
  /** Allows the read-only built-ins; denies everything else. */
  readOnly: (): Policy =>
    new RulePolicy({
      default: 'deny',
      rules: [{ tools: readTools, decision: 'allow', reason: 'reads are allowed' }],
    }),
  /** Allows reading and writing files; asks for everything else (shell, fetch, remote tools). */
  workspace: (): Policy =>
    new RulePolicy({
      default: 'ask',
      rules: [{ tools: [...readTools, 'write_file'], decision: 'allow', reason: 'file access is allowed' }],
    }),
} as const;
