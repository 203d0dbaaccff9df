import { messageOf, ToolgateError } from '@toolgate/core';
import { isPostgresUrl } from '@toolgate/ledger-postgres';
import { ledgerLocation } from '@toolgate/ledger-postgres/internal';
import { z } from 'zod';

/** The gateway config's `fleet:` section as written: several instances sharing approvals and reviews. */
export const fleetSchema = z.strictObject({
  // the PostgreSQL database the instances share (default: the ledger's, when it is postgres://)
  database: z.string().min(1, 'must not be empty').optional(),
  // the fleet's name: instances with the same database and name share one view (default: the ledger's name)
  name: z.string().min(1).max(200).optional(),
  // who answers a policy `ask`: the calling client (elicitation, as without fleet:) or an operator,
  // at any instance (`toolgate-gateway answer ID --approve`)
  approvals: z.enum(['client', 'operator']).optional(),
  // how long a call waits for an operator's answer before it is refused
  approval_timeout_ms: z.number().int().min(1000).optional(),
});

/** The checked `fleet:` section. */
export interface FleetSettings {
  /** The `pg` connection string (may hold a password: show {@link FleetSettings.label}, never this). */
  readonly connectionString: string;
  /** The fleet's name: the rows of the shared tables this fleet reads and writes. */
  readonly name: string;
  /** `postgres://host:port/database (fleet "name")`, for messages. */
  readonly label: string;
  /** Who answers a policy `ask`: the calling client (default) or an operator at any instance. */
  readonly approvals: 'client' | 'operator';
  /** How long a call waits for an operator's answer, in ms (default 300 000). */
  readonly approvalTimeoutMs: number;
}

/** A call waits this long for an operator's answer unless `fleet.approval_timeout_ms` says otherwise. */
export const defaultApprovalTimeoutMs = 300_000;

/**
 * The `fleet:` section resolved against the ledger: `database` defaults to the ledger's URL and
 * `name` to the ledger's name; a fleet with neither a `database` nor a `postgres://` ledger is
 * refused (a file ledger cannot be shared), as is a `database` that is not a `postgres://` URL.
 */
export function fleetSettings(section: z.output<typeof fleetSchema>, ledger: string): FleetSettings {
  const database = section.database ?? (isPostgresUrl(ledger) ? ledger : undefined);
  if (database === undefined) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'fleet: the instances need a PostgreSQL database to share: give fleet.database (postgres://USER@HOST:PORT/DATABASE), or make the ledger a postgres:// URL',
    );
  }
  if (!isPostgresUrl(database) || !URL.canParse(database)) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'fleet.database: give a postgres://USER@HOST:PORT/DATABASE URL (a password is better left to PGPASSWORD or ~/.pgpass)',
    );
  }
  const location = ledgerLocation(database, section.name);
  const url = new URL(location.connectionString);
  return {
    connectionString: location.connectionString,
    name: location.ledger,
    label: `postgres://${url.host}${url.pathname} (fleet ${JSON.stringify(location.ledger)})`,
    approvals: section.approvals ?? 'client',
    approvalTimeoutMs: section.approval_timeout_ms ?? defaultApprovalTimeoutMs,
  };
}

/** The `fleet:` section, its `${VAR}`s expanded, checked against the ledger. */
export function fleetOf(
  section: z.output<typeof fleetSchema>,
  at: { ledger: string; expand: (value: string) => string; fail: (message: string) => Error },
): FleetSettings {
  const database = section.database === undefined ? undefined : at.expand(section.database);
  try {
    return fleetSettings({ ...section, ...(database === undefined ? {} : { database }) }, at.ledger);
  } catch (error) {
    throw at.fail(messageOf(error));
  }
}
