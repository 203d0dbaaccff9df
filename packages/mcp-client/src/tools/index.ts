/**
 * A server's tools: the list read and collected under limits, each tool read, named, fingerprinted
 * and approved, changes noticed, results mapped back, and the policy subjects of a remote call.
 *
 * @module
 */
export { fingerprint, type ToolShape } from './fingerprint.js';
export { mapResult } from './map-result.js';
export { outputSchemasNotValidated } from './output-validator.js';
export { RemoteToolFailure, remoteToolFailure } from './remote-error.js';
export { canRecordChanges, type ToolChange, type ToolChangeRecorder } from './tool-change.js';
export { listToolPages, maxToolPages, type WithheldTool } from './tool-list.js';
