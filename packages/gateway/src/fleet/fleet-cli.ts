import { hostname, userInfo } from 'node:os';
import { ToolgateError } from '@toolgate/core';
import { parseCommandLine } from '@toolgate/core/command-line';
import { loadConfig } from '../config-load.js';
import { FleetStore, type PendingApproval } from './fleet-store.js';

const options = {
  config: { type: 'string' },
  approve: { type: 'boolean' },
  deny: { type: 'boolean' },
  reason: { type: 'string' },
  by: { type: 'string' },
} as const;

/**
 * `toolgate-gateway approvals --config F` (the approvals waiting for an operator across the fleet)
 * and `toolgate-gateway answer ID --approve|--deny [--reason TEXT] [--by NAME] --config F`. Returns
 * false for any other command line (the gateway's own parser reads it).
 */
export async function runFleetCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  write: (text: string) => void,
): Promise<boolean> {
  const command = argv[0];
  if (command !== 'approvals' && command !== 'answer') return false;
  const { values, positionals } = parseCommandLine(argv.slice(1), { options, positionals: true });
  const source = values.config ?? env.TOOLGATE_GATEWAY_CONFIG;
  if (source === undefined || source === '') {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `give the configuration: toolgate-gateway ${command} --config gateway.yaml`,
    );
  }
  const answer = command === 'answer' ? answerOf(positionals, values) : undefined;
  if (command === 'approvals' && positionals.length > 0) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'approvals takes no argument: toolgate-gateway approvals --config FILE',
    );
  }
  const config = await loadConfig(source, env);
  if (config.fleet === undefined) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `${source} has no fleet: section, so no approval waits for an operator; add fleet: { approvals: operator } (see the gateway README, "Several instances")`,
    );
  }
  const store = await FleetStore.open(config.fleet);
  try {
    if (answer === undefined) {
      const pending = await store.pending();
      write(
        pending.length === 0
          ? `no approval waits in ${config.fleet.label}\n`
          : `${pending.map(describe).join('\n')}\n`,
      );
      return true;
    }
    const done = await store.answer(answer.id, answer);
    if (!done) {
      throw new ToolgateError(
        'PERMISSION_DENIED',
        `approval ${answer.id} is not waiting in ${config.fleet.label} (unknown, answered already, expired or withdrawn); nothing was answered — see toolgate-gateway approvals --config ${source}`,
      );
    }
    write(
      `${answer.approved ? 'approved' : 'denied'} ${answer.id}; the waiting call goes on at its instance\n`,
    );
    return true;
  } finally {
    await store.close();
  }
}

function answerOf(
  positionals: readonly string[],
  values: { approve?: boolean; deny?: boolean; reason?: string; by?: string },
): { id: string; approved: boolean; by: string; reason?: string } {
  const [id, ...rest] = positionals;
  if (id === undefined || rest.length > 0 || values.approve === values.deny) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'answer takes one approval id and exactly one of --approve or --deny: toolgate-gateway answer ID --approve --config FILE',
    );
  }
  return {
    id,
    approved: values.approve === true,
    by: values.by ?? `${userInfo().username}@${hostname()} (toolgate-gateway answer)`,
    ...(values.reason === undefined ? {} : { reason: values.reason }),
  };
}

function describe(approval: PendingApproval): string {
  const parameters = JSON.stringify(approval.parameters);
  return [
    `${approval.id}  client "${approval.client}" calls "${approval.tool}" at ${approval.instance}`,
    `  asked ${approval.askedAt.toISOString()}, until ${approval.expiresAt.toISOString()}: ${approval.reason}`,
    `  parameters: ${parameters.length > 400 ? `${parameters.slice(0, 400)}…` : parameters}`,
  ].join('\n');
}
