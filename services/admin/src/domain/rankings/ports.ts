/** A label bought (counted on the UTC day of `at`) or given back. Cents; `at` is an ISO timestamp. */
export type LabelFact =
  | { kind: 'purchased'; labelId: string; userId: string; priceCents: number; costCents?: number; at: string }
  | { kind: 'refunded'; labelId: string; userId: string; priceCents: number; at: string };

/** Whole UTC days, both included, YYYY-MM-DD. */
export interface RankingWindow {
  start: string;
  end: string;
  /** True when the window ends today or later: nothing exists after its end, so its last month and year may be read whole. */
  openEnd?: boolean;
}

export interface RankingUserFigures {
  userId: string;
  labels: number;
  revenueCents: number;
  /** What the carriers charged the platform for those labels. */
  costCents: number;
  firstAt: Date;
  lastAt: Date;
}

export interface RankingTotals {
  uniqueUsers: number;
  totalLabels: number;
  totalRevenueCents: number;
  totalCostCents: number;
}

/** The rankings read model. */
export interface RankingsStore {
  /** Idempotent per label and kind: a fact recorded again changes nothing. */
  record(facts: LabelFact[]): Promise<void>;
  /** The top `limit` users of the window by labels or revenue, and the totals over every user of it. */
  figures(
    window: RankingWindow,
    opts: { by: 'labels' | 'revenue' | 'name'; order: 'asc' | 'desc'; limit: number },
  ): Promise<{ users: RankingUserFigures[]; totals: RankingTotals }>;
  /** Every user's labels and revenue per day; days without labels are absent. */
  days(window: RankingWindow): Promise<{ day: string; labels: number; revenueCents: number }[]>;
}
