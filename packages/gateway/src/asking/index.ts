/**
 * An upstream's own requests to its client — elicitation, sampling, roots — passed to the client
 * whose call caused them, or declined with the reason.
 *
 * @module
 */
export { CallsInFlight } from './calls-in-flight.js';
export { askingThrough, passRequest } from './pass-request.js';
