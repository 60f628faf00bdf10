/**
 * A start-up problem the person running `make start` can fix: its message is
 * one line that says what is wrong and what to do, printed without a stack trace.
 */
export class LaunchError extends Error {}

const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EEXIST: 'a file with that name is in the way',
  ENOENT: 'a part of the path does not exist',
  ELOOP: 'the path has a symbolic link loop',
  ENAMETOOLONG: 'the path is too long',
};

/** Turns a file-system error met while preparing DATA_DIR into a one-line LaunchError naming the fix. */
export function dataDirProblem(dataDir: string, error: unknown): LaunchError | null {
  const e = error as NodeJS.ErrnoException;
  const reason = e?.code ? FS_REASONS[e.code] : undefined;
  if (!reason) return null;
  const where = e.path && e.path !== dataDir ? ` (${e.path})` : '';
  return new LaunchError(
    `DATA_DIR ${dataDir} cannot be used: ${reason}${where}. Choose a directory you can write to, e.g. make start DATA_DIR=$HOME/flatship-data`,
  );
}
