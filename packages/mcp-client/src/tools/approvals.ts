import type { ToolShape } from './fingerprint.js';

/** What a local tool name is approved as: which server serves it, under which name, with which shape. */
export interface Approval {
  server: string;
  remoteName: string;
  /** The fingerprint of `shape`. */
  print: string;
  shape: ToolShape;
}

/** How many approvals of names a server no longer lists are kept, per server, by default. */
export const defaultRetiredApprovals = 1000;

/**
 * The approvals of one resolver, by local tool name. Each approval names the server and remote
 * name it was given for, so the same name listed by another server is a change, not a new tool.
 * When a server stops listing a name its approval is kept (the name stays that server's: a
 * server cannot take it over while it is briefly unlisted), but only the `retiredLimit` most
 * recently unlisted per server: the oldest are forgotten, so memory stays flat however many new
 * names a server lists.
 */
export class Approvals {
  readonly #approved = new Map<string, Approval>();
  /** Per server, the names approved for it. */
  readonly #byServer = new Map<string, Set<string>>();
  /** Per server, the names approved for it that it no longer lists, oldest first. */
  readonly #retired = new Map<string, Set<string>>();
  readonly #retiredLimit: number;

  constructor(retiredLimit = defaultRetiredApprovals) {
    this.#retiredLimit = retiredLimit;
  }

  /** The approval of a local name, if any. */
  get(name: string): Approval | undefined {
    return this.#approved.get(name);
  }

  /** How many approvals are held (listed and retired). */
  get size(): number {
    return this.#approved.size;
  }

  /** Approves `name` as `approval`, taking it from whichever server held it before. */
  set(name: string, approval: Approval): void {
    const before = this.#approved.get(name);
    if (before && before.server !== approval.server) {
      this.#byServer.get(before.server)?.delete(name);
      this.#retired.get(before.server)?.delete(name);
    }
    this.#approved.set(name, approval);
    setOf(this.#byServer, approval.server).add(name);
    this.#retired.get(approval.server)?.delete(name);
  }

  /**
   * Tells which names `server` lists now: its approvals for other names are retired, and the
   * oldest retired ones beyond the limit forgotten.
   */
  keepListed(server: string, listed: ReadonlySet<string>): void {
    const names = this.#byServer.get(server);
    if (!names) return;
    const retired = setOf(this.#retired, server);
    for (const name of names) {
      if (listed.has(name)) retired.delete(name);
      else retired.add(name);
    }
    for (const name of retired) {
      if (retired.size <= this.#retiredLimit) break;
      retired.delete(name);
      names.delete(name);
      if (this.#approved.get(name)?.server === server) this.#approved.delete(name);
    }
  }
}

function setOf(map: Map<string, Set<string>>, key: string): Set<string> {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}
