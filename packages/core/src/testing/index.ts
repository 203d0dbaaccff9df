/**
 * @toolgate/core/testing: the work the call contract obliges of any gate, bare — the bound on a
 * call's parameters and the cap on its output, as the gate applies them — so the bench can measure
 * a floor under `agent.callTool` (its `core-gate-overhead` row). Not semver-promised.
 *
 * @module
 */

export { type CappedOutput, capOutputOf } from '../pipeline/cap.js';
export { oversizedParameters } from '../pipeline/parameter-bound.js';
