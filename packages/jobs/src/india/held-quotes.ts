import { Decimal } from '@ledger/core/posting';
import type { Db } from '@ledger/core/store';
import { heldSymbols, recordClosePrices } from '@ledger/india';
import type { UsbrokerClient } from '@ledger/upstream-clients';
import { z } from 'zod';
import { upstreamFailureReason } from '../kit/per-customer.js';
import { noOutcomes, outcomeCounts } from '../kit/results.js';

export const heldQuotesResult = z.strictObject({
  prices: outcomeCounts.describe(
    'Days’ closes `inserted`, `updated` (a later reading of the day differs) or `duplicate` (the same close held).',
  ),
  error: z.string().nullable().describe('Why the broker’s quotes could not be read; the sync’s postings stand.'),
});

/** The day of a quote in New York, where the symbols trade: the day whose close it stands for. */
const newYorkDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * After a broker sync: the broker's quotes of the symbols customers hold, each recorded as its
 * day's close (a later reading of the day replaces it), for the Schedule FA peak and closing
 * values. A broker that fails here fails nothing else: the sync's postings stand; the reason is
 * reported.
 */
export async function recordHeldQuotes(db: Db, usbroker: UsbrokerClient): Promise<z.infer<typeof heldQuotesResult>> {
  const symbols = await heldSymbols(db);
  if (symbols.length === 0) return { prices: noOutcomes(), error: null };
  try {
    const quotes = await usbroker.getQuotes(symbols);
    const prices = quotes.map((q) => ({
      symbol: q.symbol,
      date: newYorkDate.format(new Date(q.as_of)),
      closeUsd: new Decimal(q.last),
    }));
    const { inserted, updated, unchanged } = await recordClosePrices(db, prices, 'usbroker');
    return { prices: { ...noOutcomes(), inserted, updated, duplicate: unchanged }, error: null };
  } catch (error) {
    const reason = upstreamFailureReason(error);
    if (reason === null) throw error;
    return { prices: noOutcomes(), error: reason };
  }
}
