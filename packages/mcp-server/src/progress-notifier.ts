import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ToolProgressEvent } from '@toolgate/core/internal';

/**
 * A progress listener that sends each report to the client as `notifications/progress` under the
 * client's `progressToken`. A notification that cannot be sent is dropped: progress is advisory,
 * so a client gone away never fails the call.
 *
 * @example
 * const token = request.params._meta?.progressToken;
 * if (token !== undefined) options.onProgress = progressNotifier(token, extra.sendNotification);
 */
export function progressNotifier(
  progressToken: string | number,
  send: (notification: ServerNotification) => Promise<void>,
): (event: ToolProgressEvent) => void {
  return ({ progress, total, message }) => {
    const params = {
      progressToken,
      progress,
      ...(total === undefined ? {} : { total }),
      ...(message === undefined ? {} : { message }),
    };
    send({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}
