/**
 * An upstream's own requests to its client — elicitation, sampling, roots — passed to the client
 * whose call caused them, or declined with the reason; and the `always` answers of a client's user,
 * written back to the policy layer that remembers them.
 *
 * @module
 */
export { writingAlways } from './always-answers.js';
export { CallsInFlight } from './calls-in-flight.js';
export { askingThrough, passRequest } from './pass-request.js';
