/**
 * The upstreams' surface beyond tools, served to each client behind its grants: prompts, resources
 * (and their templates), each get and read recorded.
 *
 * @module
 */

export { concerns, listView, passingOn } from './passing-on.js';
export { serveSurface } from './serve-surface.js';
export { SessionHub } from './session-hub.js';
export { toolListFor } from './tool-list.js';
