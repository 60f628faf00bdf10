// Types of build.mjs for the TypeScript that calls it (the test setup, the launcher tests).

export interface Runnable {
  name: string;
  /** Entry source, relative to the repository root. */
  source: string;
  /** Bundle written, relative to the repository root. */
  out: string;
  /** Built only when its source exists. */
  optional?: boolean;
}

export interface BuildReason {
  name: string;
  reason: string;
}

export const REPO_ROOT: string;
export const RUNNABLES: readonly Runnable[];
export const LIBRARIES: readonly string[];
export const COMPANIONS: readonly { when: string; source: string; out: string }[];

export function presentRunnables(root?: string): Runnable[];
export function staleReason(entry: Runnable, root?: string): string | null;
export function buildRunnable(entry: Runnable, root?: string): Promise<void>;
export function buildLibrary(dir: string, root?: string): Promise<void>;
export function buildRunnables(opts?: {
  root?: string;
  entries?: readonly Runnable[];
  onlyStale?: boolean;
  onStart?: (todo: BuildReason[]) => void;
}): Promise<BuildReason[]>;
export function describeBuild(todo: readonly BuildReason[]): string;
