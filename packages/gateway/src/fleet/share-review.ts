import type { FleetSettings } from './fleet-config.js';
import { type FleetReview, FleetStore } from './fleet-store.js';

/** Writes an operator's review of a tool to the fleet's database and wakes every instance to apply it. */
export async function shareReview(settings: FleetSettings, review: FleetReview): Promise<void> {
  const store = await FleetStore.open(settings);
  try {
    await store.publishReview(review);
  } finally {
    await store.close();
  }
}
