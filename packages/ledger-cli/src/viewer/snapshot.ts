import type { LedgerEvent, RunSummary } from '@toolgate/ledger';
import type { Filters, Row } from './page/model.js';

/** What verification said about a ledger, as the viewer shows it at the top of the page. */
export type ViewerStatus =
  | {
      /** Verification is under way: nothing is vouched for until it has read to the end. */
      readonly state: 'verifying';
      /** How many records verified so far. */
      readonly count: number;
    }
  | {
      readonly state: 'verified';
      /** How many records verified. */
      readonly count: number;
      /** The last record's seq and hash; undefined for an empty ledger. */
      readonly last: { readonly seq: number; readonly hash: string } | undefined;
    }
  | {
      readonly state: 'corrupt';
      /** The seq of the first bad record, as `toolgate-ledger verify` names it. */
      readonly seq: number;
      /** Why it is bad. */
      readonly reason: string;
    }
  | {
      readonly state: 'unreadable';
      /** Why the ledger cannot be read (missing, a newer schema version …). */
      readonly message: string;
    };

/** Whether the ledger holds what a signed checkpoint committed to, in `verify --checkpoint`'s words. */
export interface ViewerCheckpoint {
  readonly holds: boolean;
  readonly text: string;
}

/** A whole ledger as the page receives it: the file's name, its verification, its good records. */
export interface ViewerSnapshot {
  /** The ledger file as it was named on the command line. */
  readonly file: string;
  readonly status: ViewerStatus;
  /** The records that verified, in seq order (those before the first bad one, when there is one). */
  readonly events: readonly LedgerEvent[];
  /** True when the page follows a live server; false for a static export. */
  readonly live: boolean;
  /** The checkpoints it was exported with (`export --checkpoint`), each checked against its records. */
  readonly checkpoints?: readonly ViewerCheckpoint[];
}

/** What the page's header shows of a served ledger, as its index knows it now. */
export interface ViewerState {
  readonly file: string;
  readonly status: ViewerStatus;
  /** A failure the follow met after the ledger first verified to its end. */
  readonly liveFault: string | undefined;
  /** How many records verified. */
  readonly count: number;
  /** The last verified record. */
  readonly last: { readonly seq: number; readonly hash: string } | undefined;
}

/** One window of the timeline (what `/rows` answers), and what the header and toolbar need beside it. */
export interface RowsWindow {
  readonly state: ViewerState;
  /** The ledger's runs, in the order they started. */
  readonly runs: readonly RunSummary[];
  /** The filters applied (the run is the latest one when none was asked for). */
  readonly filters: Filters;
  /** The actors, tools and kinds of the run (of every run, when the run filter is empty). */
  readonly distinct: { readonly agents: string[]; readonly tools: string[]; readonly kinds: string[] };
  /** How many calls the ledger holds (`calls`), and how many ended each way. */
  readonly tally: Readonly<Record<string, number>>;
  /** How many rows pass the filters. */
  readonly total: number;
  /** The index of the first row of this window among those that pass. */
  readonly from: number;
  readonly rows: readonly Row[];
}

/** What a window asks for: the filters (run undefined: the latest run), the first row, how many. */
export interface WindowQuery {
  readonly filters: Omit<Filters, 'run'> & { run?: string };
  readonly from: number;
  readonly limit: number;
}
