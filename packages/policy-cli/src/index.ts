/**
 * @toolgate/policy-cli: a policy from layered files and directories (`loadPolicyFiles`), the lint
 * for rules that never decide (`lintPolicy`), and the `toolgate` command (`toolgate policy check`,
 * `toolgate policy explain`), which this entry runs in-process, and `writeAlwaysRule`, which
 * writes an approver's `always` answer back to the user's layer (`forgetRules` revokes one).
 *
 * @module
 */
export { type AlwaysRule, alwaysRule, literalGlob } from './always-rule.js';
export { type AlwaysAnswer, type AlwaysWritten, writeAlwaysRule } from './always-write.js';
export { type CliIo, exitCodes, main } from './cli/main.js';
export {
  loadPolicyFiles,
  type PolicyFileLayer,
  type PolicyFileRead,
  type PolicyFiles,
  placeOf,
  readPolicyLayers,
} from './policy-files.js';
export { type LintFinding, lintPolicy } from './policy-lint.js';
export { forgetRules, listRules } from './rules-forget.js';
