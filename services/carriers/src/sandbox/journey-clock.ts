import { appendFile, readFile } from 'node:fs/promises';

/**
 * The sandbox's journey clock, moved forward by hand (`SANDBOX_JOURNEY_FILE`), so a test stack can say "USPS takes
 * the parcels now" instead of waiting for hours to pass. Purchases happen on the same clock: moving it forward ages
 * the labels already bought, and a label bought afterwards starts its journey from the start, as it would if the
 * hours had really passed. The file is a log of moves, one a line: when (ISO time) and by how many milliseconds.
 * Every process of a stack reads the same file, so they all tell the same story.
 */
export interface JourneyMove {
  at: Date;
  aheadMs: number;
}

/** How far the journey clock has been moved forward by `at`. */
function aheadBy(moves: readonly JourneyMove[], at: Date): number {
  return moves.reduce((sum, m) => (m.at.getTime() <= at.getTime() ? sum + m.aheadMs : sum), 0);
}

/**
 * Where a parcel bought at `purchasedAt` stands on the journey clock at `now`: the real time since its purchase plus
 * every move made since.
 */
export function journeyNow(now: Date, purchasedAt: Date | undefined, moves: readonly JourneyMove[]): Date {
  if (moves.length === 0) return now;
  const since = purchasedAt ? aheadBy(moves, purchasedAt) : 0;
  return new Date(now.getTime() + aheadBy(moves, now) - since);
}

/** The moves written to `file` so far (none while it does not exist); a line that does not read is an error. */
export function journeyMovesIn(file: string): () => Promise<JourneyMove[]> {
  return async () => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const [at = '', ms = ''] = line.trim().split(/\s+/);
        const move = { at: new Date(at), aheadMs: Number(ms) };
        if (Number.isNaN(move.at.getTime()) || !Number.isInteger(move.aheadMs) || move.aheadMs < 0) {
          throw new Error(`${file}: "${line}" is not a journey move (an ISO time and a whole number of milliseconds)`);
        }
        return move;
      });
  };
}

/** Moves the journey clock of every sandbox reading `file` forward by `aheadMs`, from `at` on. */
export async function moveJourneyClock(file: string, aheadMs: number, at = new Date()): Promise<void> {
  if (!Number.isInteger(aheadMs) || aheadMs < 0) throw new Error(`aheadMs must be a whole number of 0 or more`);
  await appendFile(file, `${at.toISOString()} ${aheadMs}\n`);
}
