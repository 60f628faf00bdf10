/**
 * The file cannot become rows: its message is shown to the user as it is, so it names the
 * row and the field where it can. Anything else thrown by the reader is a bug.
 */
export class OrderFileError extends Error {
  override name = 'OrderFileError';
}

/** Lists at most a few problems so a file with thousands of bad rows still gets a readable message. */
export function joinProblems(problems: string[], max = 5): string {
  const shown = problems.slice(0, max).join('; ');
  const rest = problems.length - max;
  return rest > 0 ? `${shown}; and ${rest} more` : shown;
}
