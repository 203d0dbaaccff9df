/**
 * What the gateway reads of a resolver beyond its tools: each upstream's session state, a server's
 * wider surface (prompts, resources, completion, logging) sent on its session, tools' hints, and the
 * reviews a lock file seeds and keeps.
 *
 * @module
 */
export { type ReviewedTool, reviewOf, seedReviews } from './reviewed.js';
export { extrasOf, requestOn, servingSummary, upstreamsOf } from './upstream.js';
