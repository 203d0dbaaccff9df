import type { LedgerEvent } from '@toolgate/ledger';

/** What verification said about a ledger, as the viewer shows it at the top of the page. */
export type ViewerStatus =
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

/** A whole ledger as the page receives it: the file's name, its verification, its good records. */
export interface ViewerSnapshot {
  /** The ledger file as it was named on the command line. */
  readonly file: string;
  readonly status: ViewerStatus;
  /** The records that verified, in seq order (those before the first bad one, when there is one). */
  readonly events: readonly LedgerEvent[];
  /** True when the page follows a live server; false for a static export. */
  readonly live: boolean;
}
