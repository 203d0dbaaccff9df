/**
 * Replay: a recorded run served back to a gate with every tool switched off — recorded results,
 * decisions and durations, in strict or lenient order.
 *
 * @module
 */
export { replayRegistry } from './registry.js';
export type { Divergence, ReplayMode, ReplayOptions } from './replay-options.js';
export { ReplaySession } from './session.js';
