import type { Logger } from '@ledger/core/runtime';

/**
 * How long a close waits on BullMQ before disconnecting by force. After a Redis restart a
 * blocking connection (a worker's, or QueueEvents') can be left reconnecting, and BullMQ's
 * close() then never returns (taskforcesh/bullmq#4656): a process told to stop would hang.
 */
export const CLOSE_GRACE_MS = 5_000;

/** Resolves after `ms`, without keeping the process alive for it. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Awaits `closing` until `graceStarts` has resolved and `graceMs` more have passed; past that,
 * logs it and runs `force` (disconnects that do not wait on the server), bounded the same way.
 */
export async function closeWithin(
  what: string,
  closing: Promise<unknown>,
  force: () => Promise<unknown>,
  logger: Logger,
  graceStarts: Promise<void> = Promise.resolve(),
  graceMs = CLOSE_GRACE_MS,
): Promise<void> {
  const closed = closing.then(
    () => true,
    () => true,
  );
  const graceOver = graceStarts.then(() => sleep(graceMs)).then(() => false);
  if (await Promise.race([closed, graceOver])) return;
  logger.warn(`${what} did not close within the grace; disconnecting`, { grace_ms: graceMs });
  await Promise.race([force().catch(() => undefined), sleep(graceMs)]);
}
