import { AsyncLocalStorage } from 'node:async_hooks';
import { SYSTEM_ACTOR } from '../domain/actors.js';

/**
 * Who the work in hand is done for (domain/actors.ts), carried with it across awaits: the api
 * sets it per request, the worker per job, so every posting, cash-request change and customer
 * change deep inside a sync records its origin without each caller passing it down. What outlives
 * its request (a manual entry waiting in the group-commit batch) carries its actor on the draft.
 */
const scope = new AsyncLocalStorage<string>();

/** Runs `work` as `actor`. */
export const withActor = <T>(actor: string, work: () => T): T => scope.run(actor, work);

/** The actor of the work in hand; `system` outside any request or job (scripts, tests, bench). */
export const currentActor = (): string => scope.getStore() ?? SYSTEM_ACTOR;
