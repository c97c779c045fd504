import { assert, ENTERABLE_TXN_TYPES, type EntryRequest } from '@ledger/core/posting';

/** An OpenAPI 3.1 Example Object whose value is a manual entry (`POST /v1/transactions` body). */
export interface EntryExample {
  summary: string;
  description?: string;
  value: EntryRequest;
}

type EnterableTxnType = (typeof ENTERABLE_TXN_TYPES)[number];

const CUSTOMER = { customer_id: 'C-1', source: 'manual' } as const;

/**
 * One valid manual entry per enterable `txn_type` (named after it), plus variants: the named
 * examples of the entry request body in Swagger UI. USD amounts and `original_amount` have at
 * most 2 decimal places (cents), `quantity` at most 8. Each `source_txn_id` is its own, so every
 * example can be posted once next to the others (again with the same payload: 200, the same
 * transaction). `apps/api/test/documented-examples.test.ts` posts and previews every one.
 */
export const ENTRY_EXAMPLES = {
  deposit: {
    summary: 'deposit (USD): Dr 1100 / Cr 2010',
    value: {
      txn_type: 'deposit',
      ...CUSTOMER,
      source_txn_id: 'example-deposit',
      txn_date: '2026-01-15',
      amount_usd: '100.00',
    },
  },
  deposit_aed: {
    summary: 'deposit in AED: Dr 1020 / Cr 2020 at the USD equivalent, each line with its AED amount',
    description:
      '367.25 AED at the peg of 3.6725 AED per USD; the transaction keeps the original amount and the peg as `fx_rate`, and both lines carry AED 367.25 (`native_amount`).',
    value: {
      txn_type: 'deposit',
      ...CUSTOMER,
      source_txn_id: 'example-deposit-aed',
      txn_date: '2026-01-15',
      amount_usd: '100.00',
      original_currency: 'AED',
      original_amount: '367.25',
      fx_rate: '3.6725',
    },
  },
  wire_in: {
    summary: 'wire_in: an inbound wire, posted as a deposit',
    value: {
      txn_type: 'wire_in',
      ...CUSTOMER,
      source_txn_id: 'example-wire-in',
      txn_date: '2026-01-15',
      amount_usd: '2500.00',
      memo: 'Inbound wire',
    },
  },
  withdrawal: {
    summary: 'withdrawal: Dr 2010 / Cr 1100, the mirror of a deposit',
    value: {
      txn_type: 'withdrawal',
      ...CUSTOMER,
      source_txn_id: 'example-withdrawal',
      txn_date: '2026-01-16',
      amount_usd: '40.00',
    },
  },
  wire_out: {
    summary: 'wire_out: an outbound wire, posted as a withdrawal',
    value: {
      txn_type: 'wire_out',
      ...CUSTOMER,
      source_txn_id: 'example-wire-out',
      txn_date: '2026-01-16',
      amount_usd: '1000.00',
      memo: 'Outbound wire',
    },
  },
  buy_security: {
    summary: 'buy_security: the cost of the shares, fee from the schedule',
    description:
      '`amount_usd` is the cost of the shares; without `fee_usd` the customer’s fee is the fee schedule’s for its source (`CUSTOMER_FEE_BPS_MANUAL`, else ' +
      '`CUSTOMER_FEE_BPS`, 22 bps by default) of it, rounded to cents: 0.22. Pending recost. Fractional quantities take up to 8 decimal places.',
    value: {
      txn_type: 'buy_security',
      ...CUSTOMER,
      source_txn_id: 'example-buy-security',
      txn_date: '2026-01-16',
      amount_usd: '100.00',
      symbol: 'AAPL',
      quantity: '0.41666667',
    },
  },
  sell_security: {
    summary: 'sell_security: the proceeds; recost posts the cost relief',
    value: {
      txn_type: 'sell_security',
      ...CUSTOMER,
      source_txn_id: 'example-sell-security',
      txn_date: '2026-01-20',
      amount_usd: '150.00',
      symbol: 'AAPL',
      quantity: '0.5',
    },
  },
  dividend: {
    summary: 'dividend: gross, Dr 1100 / Cr 2010',
    value: {
      txn_type: 'dividend',
      ...CUSTOMER,
      source_txn_id: 'example-dividend',
      txn_date: '2026-02-13',
      amount_usd: '10.00',
      symbol: 'AAPL',
    },
  },
  wht_tax: {
    summary: 'wht_tax: tax withheld on a dividend, Dr 2010 / Cr 1100',
    value: {
      txn_type: 'wht_tax',
      ...CUSTOMER,
      source_txn_id: 'example-wht-tax',
      txn_date: '2026-02-13',
      amount_usd: '2.50',
      symbol: 'AAPL',
      memo: 'US withholding, 25% of the 10.00 dividend',
    },
  },
  broker_fee: {
    summary: 'broker_fee: a fee the broker charged the customer’s account, Dr 2010 / Cr 1100',
    value: {
      txn_type: 'broker_fee',
      ...CUSTOMER,
      source_txn_id: 'example-broker-fee',
      txn_date: '2026-02-27',
      amount_usd: '15.00',
      memo: 'account maintenance fee',
    },
  },
  fx_spread: {
    summary: 'fx_spread: margin on a paid remittance, Dr 1300 / Cr 4030',
    value: {
      txn_type: 'fx_spread',
      ...CUSTOMER,
      source_txn_id: 'example-fx-spread',
      txn_date: '2026-01-15',
      amount_usd: '15.00',
      memo: '30 bps on a 5000.00 USD remittance',
    },
  },
  fx_spread_settle: {
    summary: 'fx_spread_settle: the provider settles the margin (firm-level, no customer)',
    value: {
      txn_type: 'fx_spread_settle',
      source: 'manual',
      source_txn_id: 'example-fx-spread-settle',
      txn_date: '2026-01-31',
      amount_usd: '15.00',
    },
  },
  adjustment: {
    summary: 'adjustment: the operator’s own balanced lines (firm-level)',
    description: 'Only `adjustment` takes `lines`: two or more, each with one positive side, debits equal to credits.',
    value: {
      txn_type: 'adjustment',
      source: 'manual',
      source_txn_id: 'example-adjustment',
      txn_date: '2026-01-31',
      amount_usd: '12.00',
      memo: 'Remittance provider fee, January',
      // Money leaves the operating bank: said so, or the entry is refused.
      credits_operating_bank: true,
      lines: [
        { account_code: '5030', debit: '12.00', credit: '0' },
        { account_code: '1010', debit: '0', credit: '12.00' },
      ],
    },
  },
} satisfies Record<EnterableTxnType | 'deposit_aed', EntryExample> as Record<string, EntryExample>;

// Every enterable type has an example named after it (a new type without one fails at start, and
// the `satisfies` above fails the build); every example's key is unique.
for (const txnType of ENTERABLE_TXN_TYPES) {
  assert(
    ENTRY_EXAMPLES[txnType]?.value.txn_type === txnType,
    `the OpenAPI entry examples have one for txn_type ${txnType}`,
  );
}
const keys = Object.values(ENTRY_EXAMPLES).map((e) => e.value.source_txn_id);
assert(new Set(keys).size === keys.length, 'every entry example has its own source_txn_id');
