/**
 * The entry of a search thread: runs each {@link SearchJob} it is sent with the JavaScript engine
 * and answers with the result or the error. A runaway regular expression stalls only this thread,
 * which its owner terminates at the search's deadline. It says `ready` once loaded, so the deadline
 * measures the search and not the start of the thread.
 */
import { parentPort } from 'node:worker_threads';
import { ToolgateError } from '@toolgate/core';
import { runSearchJob, type SearchJob } from './search-job.js';

const port = parentPort;
if (port === null) throw new Error('search-worker runs only as a worker thread');

port.on('message', (job: SearchJob) => {
  runSearchJob(job).then(
    (result) => port.postMessage({ ok: true, result }),
    (error: unknown) =>
      port.postMessage({
        ok: false,
        code: ToolgateError.is(error) ? error.code : 'TOOL_FAILED',
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
port.postMessage('ready');
