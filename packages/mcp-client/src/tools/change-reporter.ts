import { ToolgateError } from '@toolgate/core';
import { canRecordChanges, type ToolChange, type ToolChangeRecorder } from './tool-change.js';

/** Where a resolver's tool changes go: a listener, and a recorder when it can record them. */
export interface ChangeReporterOptions {
  onChange?: (change: ToolChange) => void;
  recorder?: ToolChangeRecorder;
}

/**
 * Reports each tool change to the listener and the recorder. A recorder that fails is remembered:
 * from then on {@link ChangeReporter.throwIfFailed} stops every call, since a change went unrecorded.
 */
export class ChangeReporter {
  readonly #options: ChangeReporterOptions;
  #failure: unknown;

  constructor(options: ChangeReporterOptions) {
    this.#options = options;
  }

  /** Tells the listener, then records the change (a recorder failure is kept, not thrown). */
  async report(change: ToolChange): Promise<void> {
    this.#options.onChange?.(change);
    const recorder = this.#options.recorder;
    if (!canRecordChanges(recorder)) return;
    try {
      await recorder.toolChanged(change);
    } catch (error) {
      this.#failure ??= error;
    }
  }

  /** Throws TOOL_FAILED (caused by the recorder's error) once a change could not be recorded. */
  throwIfFailed(): void {
    if (this.#failure !== undefined) {
      const message = 'the recorder failed to record a tool change; the run stops here';
      throw new ToolgateError('TOOL_FAILED', message, { cause: this.#failure });
    }
  }
}
