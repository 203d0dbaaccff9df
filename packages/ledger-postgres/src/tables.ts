/** The table of records: one canonical line a row, with the columns reads filter on. */
export const eventsTable = 'toolgate_ledger_events';
/** The table of heads: one row a ledger, locked by the writer sealing (it serialises the seals). */
export const headsTable = 'toolgate_ledger_heads';
/** The channel appends notify on (the payload is the ledger's name). */
export const notifyChannel = 'toolgate_ledger';
