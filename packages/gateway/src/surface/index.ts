/**
 * The upstreams' surface beyond tools, served to each client behind its grants: prompts, resources
 * (and their templates), each get and read recorded.
 *
 * @module
 */

export { concerns, listView, passingOn } from './passing-on.js';
export { getPrompt, promptsFor } from './prompts.js';
export { readResource, resourcesFor, resourceTemplatesFor } from './resources.js';
export { serveSurface } from './serve-surface.js';
export { type HubSession, type ListKind, SessionHub } from './session-hub.js';
export { type SurfaceGrant, surfaceGrantOf } from './surface-grant.js';
export { toolListFor } from './tool-list.js';
export { uriGlob } from './uri-glob.js';
