import { ToolgateError } from '@toolgate/core';

/** Turns an operating-system error about `path` into a ToolgateError with a code and a next step. */
export function fileError(error: unknown, path: string, action: string): unknown {
  if (ToolgateError.is(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const quoted = JSON.stringify(path);
  switch (code) {
    case 'ENOENT':
      return new ToolgateError('NOT_FOUND', `cannot ${action} ${quoted}: no such file or directory`, {
        cause: error,
      });
    case 'EISDIR':
      return new ToolgateError('INVALID_PATH', `cannot ${action} ${quoted}: it is a directory`, {
        cause: error,
      });
    case 'ENOTDIR':
    case 'EEXIST':
      return new ToolgateError(
        'INVALID_PATH',
        `cannot ${action} ${quoted}: a part of it is not a directory`,
        {
          cause: error,
        },
      );
    case 'ELOOP':
      return new ToolgateError(
        'INVALID_PATH',
        `cannot ${action} ${quoted}: it is (or became) a symbolic link, which is never followed here`,
        { cause: error },
      );
    case 'ENXIO':
      return new ToolgateError(
        'INVALID_PATH',
        `cannot ${action} ${quoted}: it is a FIFO or socket with nothing on the other end, not a regular file`,
        { cause: error },
      );
    case 'EACCES':
    case 'EPERM':
      return new ToolgateError('INVALID_PATH', `cannot ${action} ${quoted}: permission denied`, {
        cause: error,
      });
    default:
      return error;
  }
}
