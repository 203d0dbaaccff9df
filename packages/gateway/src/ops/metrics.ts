import type { ToolResult } from '@toolgate/core';

/** The upper bounds of the call latency histogram, in seconds. */
const bucketsSeconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** What the HTTP listener reports besides the gateway's own counts. */
export interface MetricsSnapshot {
  /** Open HTTP sessions per client. */
  sessions: ReadonlyMap<string, number>;
  /** Each upstream and whether its session is open. */
  upstreams: ReadonlyArray<{ server: string; open: boolean }>;
}

/**
 * The gateway's counts for `/metrics`: calls per client and outcome (`ok`, or the refusal's code),
 * and a histogram of call latencies, rendered as Prometheus text exposition (version 0.0.4).
 */
export class GatewayMetrics {
  readonly #calls = new Map<string, number>();
  readonly #buckets = bucketsSeconds.map(() => 0);
  readonly #sessionsRefused = new Map<string, number>();
  #count = 0;
  #sum = 0;

  /** Counts one finished call of `client` that took `milliseconds`. */
  call(client: string, result: ToolResult, milliseconds: number): void {
    const outcome = result.isError ? result.error.code : 'ok';
    const key = `client="${label(client)}",outcome="${outcome}"`;
    this.#calls.set(key, (this.#calls.get(key) ?? 0) + 1);
    const seconds = milliseconds / 1000;
    bucketsSeconds.forEach((bound, index) => {
      if (seconds <= bound) this.#buckets[index]! += 1;
    });
    this.#count += 1;
    this.#sum += seconds;
  }

  /** Counts one session refused to `client` for holding its limit. */
  sessionRefused(client: string): void {
    this.#sessionsRefused.set(client, (this.#sessionsRefused.get(client) ?? 0) + 1);
  }

  /** The Prometheus text of every metric, with the listener's sessions and the upstreams' state. */
  render(snapshot: MetricsSnapshot): string {
    const lines = [
      '# HELP toolgate_gateway_calls_total Tool calls finished, by client and outcome (ok, or the refusal code).',
      '# TYPE toolgate_gateway_calls_total counter',
      ...[...this.#calls].map(([key, count]) => `toolgate_gateway_calls_total{${key}} ${count}`),
      '# HELP toolgate_gateway_call_duration_seconds How long tool calls took, grant to result.',
      '# TYPE toolgate_gateway_call_duration_seconds histogram',
      ...bucketsSeconds.map(
        (bound, index) =>
          `toolgate_gateway_call_duration_seconds_bucket{le="${bound}"} ${this.#buckets[index]}`,
      ),
      `toolgate_gateway_call_duration_seconds_bucket{le="+Inf"} ${this.#count}`,
      `toolgate_gateway_call_duration_seconds_sum ${this.#sum}`,
      `toolgate_gateway_call_duration_seconds_count ${this.#count}`,
      '# HELP toolgate_gateway_sessions Open HTTP sessions, by client.',
      '# TYPE toolgate_gateway_sessions gauge',
      ...[...snapshot.sessions].map(
        ([client, count]) => `toolgate_gateway_sessions{client="${label(client)}"} ${count}`,
      ),
      '# HELP toolgate_gateway_sessions_refused_total New sessions refused for a client holding its limit.',
      '# TYPE toolgate_gateway_sessions_refused_total counter',
      ...[...this.#sessionsRefused].map(
        ([client, count]) => `toolgate_gateway_sessions_refused_total{client="${label(client)}"} ${count}`,
      ),
      '# HELP toolgate_gateway_upstream_up 1 while the upstream session is open, else 0.',
      '# TYPE toolgate_gateway_upstream_up gauge',
      ...snapshot.upstreams.map(
        ({ server, open }) => `toolgate_gateway_upstream_up{upstream="${label(server)}"} ${open ? 1 : 0}`,
      ),
    ];
    return `${lines.join('\n')}\n`;
  }
}

/** A label value as the exposition format writes it (backslash, quote and newline escaped). */
function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
