import type { ChildProcess } from 'node:child_process';
import {
  freshLedgerName,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from '@toolgate/ledger-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratch, textOf } from '../testing-fixtures/gateway.js';
import {
  firstRound,
  type Instance,
  rawCall,
  startInstance,
  startUpstream,
} from '../testing-fixtures/held-calls.js';

requirePostgresInContinuousIntegration(it);

describe.skipIf(postgresUrl === undefined)(
  `a held call in a fleet on PostgreSQL (${postgresUrl ? 'a real server' : postgresSkipReason})`,
  { timeout: 180_000 },
  () => {
    const place = scratch();
    const name = freshLedgerName('held');
    let upstream: { url: string; child: ChildProcess };
    const instances: Instance[] = [];

    beforeAll(async () => {
      upstream = await startUpstream();
      const fleet = `fleet: { database: ${JSON.stringify(postgresUrl)}, name: ${name} }\n`;
      instances.push(await startInstance(place.dir, 'one', upstream.url, fleet));
      instances.push(await startInstance(place.dir, 'two', upstream.url, fleet));
    }, 120_000);
    afterAll(async () => {
      for (const instance of instances) {
        await instance.endpoint.close();
        await instance.gateway.close();
      }
      upstream?.child.kill();
      place.remove();
    });

    it('refuses at the other instance a retry of a call held by one, in the words of the config, and serves it at home', async () => {
      const [one, two] = instances as [Instance, Instance];
      const tool = 'cf__test_input_required_result_elicitation';
      const { key, requestState } = await firstRound(one.endpoint.url, tool);
      const answer = { [key]: { action: 'accept', content: { name: 'Ada' } } };
      const elsewhere = await rawCall(two.endpoint.url, { name: tool, inputResponses: answer, requestState });
      expect(elsewhere.body.result).toBeUndefined();
      expect(elsewhere.body.error?.message).toMatch(
        new RegExp(
          `^the call this requestState belongs to is held by another instance of the fleet "${name}" ` +
            `\\(fleet: in .*two\\.yaml\\): the instances share approvals and reviews, not held calls\\. ` +
            'Send every retry of one call to the instance that answered it \\(route by client, sticky\\), ' +
            'or call again without requestState$',
        ),
      );
      const home = await rawCall(one.endpoint.url, { name: tool, inputResponses: answer, requestState });
      expect(textOf(home.body.result)).toBe('Hello, Ada! (accept)');
    });
  },
);
