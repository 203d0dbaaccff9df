import { ToolgateError } from './errors.js';

/**
 * Node's timer handle. Spelled out so core also type-checks where the DOM's `setTimeout` types are
 * in scope (the ledger viewer's page imports core's types).
 */
type Timer = ReturnType<typeof setTimeout> & { ref(): unknown; unref(): unknown };

interface Deadline {
  readonly at: number;
  readonly fire: () => void;
  previous: Deadline | undefined;
  next: Deadline | undefined;
}

/**
 * The pending deadlines of one budget, oldest first: with one budget, a later call always has a
 * later deadline, so adding and removing are O(1). One timer serves the whole list, firing at the
 * oldest deadline; it holds the process open only while a deadline is pending.
 */
class DeadlineList {
  #head: Deadline | undefined;
  #tail: Deadline | undefined;
  #timer: Timer | undefined;

  constructor(readonly budgetMs: number) {}

  add(fire: () => void): Deadline {
    const deadline: Deadline = {
      at: performance.now() + this.budgetMs,
      fire,
      previous: this.#tail,
      next: undefined,
    };
    if (this.#tail) this.#tail.next = deadline;
    else this.#head = deadline;
    this.#tail = deadline;
    if (this.#timer === undefined) this.#arm(this.budgetMs);
    else this.#timer.ref();
    return deadline;
  }

  remove(deadline: Deadline): void {
    const { previous, next } = deadline;
    if (previous) previous.next = next;
    else if (this.#head === deadline) this.#head = next;
    else return; // already removed
    if (next) next.previous = previous;
    else this.#tail = previous;
    deadline.previous = undefined;
    deadline.next = undefined;
    if (this.#head === undefined) this.#timer?.unref();
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, delayMs)) as Timer;
  }

  #expire(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (let head = this.#head; head !== undefined && head.at <= now; head = this.#head) {
      this.remove(head);
      head.fire();
    }
    if (this.#head) this.#arm(this.#head.at - now);
  }
}

const lists = new Map<number, DeadlineList>();

/**
 * Calls `fire` once `budgetMs` have passed, unless the returned function is called first. Cheaper
 * than a timer per call: calls with the same budget share one timer.
 */
export function afterBudget(budgetMs: number, fire: () => void): () => void {
  let list = lists.get(budgetMs);
  if (list === undefined) {
    list = new DeadlineList(budgetMs);
    lists.set(budgetMs, list);
  }
  const deadline = list.add(fire);
  const owner = list;
  return () => owner.remove(deadline);
}

/** A time budget as given (a positive number of ms, `Infinity` for none), or a definition error. */
export function checkTimeout(timeoutMs: unknown, what: string): number {
  if (typeof timeoutMs === 'number' && timeoutMs > 0 && !Number.isNaN(timeoutMs)) return timeoutMs;
  throw new ToolgateError(
    'INVALID_DEFINITION',
    `${what} timeoutMs must be a positive number of milliseconds (Infinity for none), not ${String(timeoutMs)}`,
  );
}
