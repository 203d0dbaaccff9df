/**
 * An upstream's own requests to its client — elicitation, sampling, roots — passed to the client
 * whose call caused them, or declined with the reason; the question that asks a client's user to
 * approve a call; and the answers remembered: `session` ones in the running gateway, `always` ones
 * written back to the policy layer that remembers them.
 *
 * @module
 */
export { writingAlways } from './always-answers.js';
export { answerOfContent, approvalQuestion } from './approval-question.js';
export { CallsInFlight } from './calls-in-flight.js';
export { askingThrough, passRequest } from './pass-request.js';
export { forgetSessionAnswers, SessionAnswers } from './session-answers.js';
