import { CALENDAR_DATE_RULE, Decimal, draftFromEntry, FeeSchedule, type JournalLineDraft } from '@ledger/core/posting';
import type { UaefeedCashTransfer, UaefeedOrder } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { DEFAULT_JOB_SETTINGS, draftOf, mapCashTransfer, mapOrder, type Mapped } from '../src/testing.js';

const PEG = new Decimal('3.6725');
/** The customer the records are posted to: cash accounts `7000001-<currency>` are its own. */
const CUSTOMER = { customerId: 'UAE-1', customerNumber: '7000001' };

const transfer = (overrides: Partial<UaefeedCashTransfer> = {}): UaefeedCashTransfer => ({
  transferId: 'TRF-1',
  cashAccountNumber: '7000001-AED',
  type: 'DEPOSIT',
  amount: '367.25',
  currency: 'AED',
  status: 'COMPLETED',
  valueDate: '2026-01-15',
  ...overrides,
});

const order = (overrides: Partial<UaefeedOrder> = {}): UaefeedOrder => ({
  clOrdId: 'CL-1',
  orderId: 'ORD-1',
  symbol: 'EMAAR',
  side: 'BUY',
  ordQty: '100',
  cumQty: '100',
  avgPx: '14.69',
  netSettle: '1471.20',
  ordStatus: 'FILLED',
  tradeDate: '2026-01-20',
  currency: 'AED',
  exchange: 'DFM',
  ...overrides,
});

/** The lines of a mapping's entry, as `account Dr|Cr amount`. */
function linesOf(mapping: Mapped): string[] {
  expect(mapping.kind).to.equal('entry');
  if (mapping.kind !== 'entry') return [];
  const draft = draftFromEntry(mapping.entry, '00000000-0000-4000-8000-000000000001', {
    feeSchedule: new FeeSchedule(new Decimal(22)),
  });
  return draft.lines.map((l: JournalLineDraft) =>
    l.debit.isZero() ? `${l.accountCode} Cr ${l.credit.toFixed(2)}` : `${l.accountCode} Dr ${l.debit.toFixed(2)}`,
  );
}

describe('uaefeed mapping (pure)', () => {
  describe('cash transfers', () => {
    it('an AED deposit: USD at the peg into 1020 / 2020, keyed by its transferId, the AED amount kept', () => {
      const mapping = mapCashTransfer(transfer(), CUSTOMER, PEG);
      expect(mapping).to.deep.equal({
        kind: 'entry',
        entry: {
          txn_type: 'deposit',
          customer_id: 'UAE-1',
          source: 'uaefeed',
          source_txn_id: 'TRF-1',
          txn_date: '2026-01-15',
          amount_usd: '100.00',
          original_currency: 'AED',
          original_amount: '367.25',
          // The peg it converted at, not 367.25 / 100.00.
          fx_rate: '3.6725',
          metadata: { cash_account: '7000001-AED', cash_movement: '367.25' },
        },
      });
      expect(linesOf(mapping)).to.deep.equal(['1020 Dr 100.00', '2020 Cr 100.00']);
    });

    it('an AED amount converts half up to cents: 1000.00 AED is 272.29 USD (272.2939...)', () => {
      const mapping = mapCashTransfer(transfer({ amount: '1000' }), CUSTOMER, PEG);
      expect(mapping.kind === 'entry' && mapping.entry).to.include({
        amount_usd: '272.29',
        original_amount: '1000.00',
      });
      const half = mapCashTransfer(transfer({ amount: '0.55' }), CUSTOMER, new Decimal('1.1'));
      expect(half.kind === 'entry' && half.entry.amount_usd).to.equal('0.50');
      const up = mapCashTransfer(transfer({ amount: '0.01' }), CUSTOMER, new Decimal('0.8'));
      expect(up.kind === 'entry' && up.entry.amount_usd, '0.0125 rounds half up to 0.01').to.equal('0.01');
    });

    it('a USD withdrawal: Dr 2010 / Cr 1100 at its amount, no original currency', () => {
      const mapping = mapCashTransfer(
        transfer({ type: 'WITHDRAW', cashAccountNumber: '7000001-USD', currency: 'USD', amount: '250.5' }),
        CUSTOMER,
        PEG,
      );
      expect(mapping.kind === 'entry' && mapping.entry).to.deep.include({
        txn_type: 'withdrawal',
        amount_usd: '250.50',
        metadata: { cash_account: '7000001-USD', cash_movement: '-250.50' },
      });
      expect(mapping.kind === 'entry' && mapping.entry.original_currency).to.equal(undefined);
      expect(linesOf(mapping)).to.deep.equal(['2010 Dr 250.50', '1100 Cr 250.50']);
    });

    it('a REJECTED transfer moved nothing: skipped', () => {
      expect(mapCashTransfer(transfer({ status: 'REJECTED' }), CUSTOMER, PEG)).to.deep.equal({
        kind: 'skipped',
        reason: { code: 'moved_nothing', detail: { status: 'REJECTED' } },
      });
    });

    it('what cannot be posted is rejected with the reason, that record only', () => {
      const reasons = [
        transfer({ currency: 'EUR', cashAccountNumber: '7000001-EUR' }),
        transfer({ cashAccountNumber: '7000001-USD' }),
        transfer({ cashAccountNumber: '7000002-AED' }),
        transfer({ amount: '10.005' }),
        transfer({ amount: '-5' }),
        transfer({ amount: '0.001' }),
        transfer({ amount: '0.00' }),
        transfer({ valueDate: '15/01/2026' }),
      ].map((t) => {
        const m = mapCashTransfer(t, CUSTOMER, PEG);
        expect(m.kind, JSON.stringify(t)).to.equal('rejected');
        return m.kind === 'rejected' ? m.reason : null;
      });
      expect(reasons).to.deep.equal([
        { code: 'unsupported_currency', detail: { currency: 'EUR', currencies: ['AED', 'USD'] } },
        {
          code: 'cash_account_currency_mismatch',
          detail: { cash_account: '7000001-USD', currency: 'AED', uaefeed_customer_number: '7000001' },
        },
        {
          code: 'not_own_cash_account',
          detail: { cash_account: '7000002-AED', currency: 'AED', uaefeed_customer_number: '7000001' },
        },
        {
          code: 'invalid_amount',
          detail: { field: 'amount', value: '10.005', rule: 'a non-negative amount in whole cents' },
        },
        {
          code: 'invalid_amount',
          detail: { field: 'amount', value: '-5', rule: 'a non-negative amount in whole cents' },
        },
        {
          code: 'invalid_amount',
          detail: { field: 'amount', value: '0.001', rule: 'a non-negative amount in whole cents' },
        },
        { code: 'below_a_cent', detail: { amount: '0.00', currency: 'AED' } },
        { code: 'invalid_date', detail: { field: 'valueDate', value: '15/01/2026', rule: CALENDAR_DATE_RULE } },
      ]);
    });
    it('when a transfer is dated a day not on the calendar › rejected with invalid_date, never an entry the database would refuse', () => {
      for (const day of ['2026-02-30', '2026-13-01', '1900-01-00', '2025-02-29']) {
        expect(mapCashTransfer(transfer({ valueDate: day }), CUSTOMER, PEG), day).to.deep.equal({
          kind: 'rejected',
          reason: { code: 'invalid_date', detail: { field: 'valueDate', value: day, rule: CALENDAR_DATE_RULE } },
        });
      }
      expect(mapCashTransfer(transfer({ valueDate: '2024-02-29' }), CUSTOMER, PEG).kind).to.equal('entry');
    });
  });

  describe('executed orders', () => {
    it('an AED buy: the cost cumQty × avgPx and the bundled fee netSettle − cost, at the peg, from the AED accounts', () => {
      // 100 × 14.69 = 1469.00 AED = 400.00 USD; fee 1471.20 − 1469.00 = 2.20 AED = 0.60 USD (0.599...).
      const mapping = mapOrder(order(), 'UAE-1', PEG);
      expect(mapping.kind === 'entry' && mapping.entry).to.deep.include({
        txn_type: 'buy_security',
        source_txn_id: 'ORD-1',
        txn_date: '2026-01-20',
        symbol: 'EMAAR',
        quantity: '100',
        amount_usd: '400.00',
        original_currency: 'AED',
        original_amount: '1469.00',
        fx_rate: '3.6725',
        fee_usd: '0.60',
        original_fee: '2.20',
        metadata: {
          cl_ord_id: 'CL-1',
          exchange: 'DFM',
          avg_px: '14.69',
          bundled_fee: '2.20',
          cash_movement: '-1471.20',
        },
      });
      expect(linesOf(mapping)).to.deep.equal([
        '1200 Dr 400.00',
        '1020 Cr 400.00',
        '2020 Dr 400.00',
        '2100 Cr 400.00',
        '2020 Dr 0.60',
        '4010 Cr 0.60',
      ]);
    });

    it('a USD sell: proceeds at gross cumQty × avgPx into 1100 / 2010 and the bundled fee stated, Dr 2010 / Cr 4010: the wallet nets netSettle', () => {
      // 3 × 201.37 = 604.11; netSettle 603.51: fee 0.60.
      const mapping = mapOrder(
        order({
          side: 'SELL',
          symbol: 'AAPL',
          currency: 'USD',
          exchange: 'NASDAQ',
          cumQty: '3',
          ordQty: '3',
          avgPx: '201.37',
          netSettle: '603.51',
        }),
        'UAE-1',
        PEG,
      );
      expect(mapping.kind === 'entry' && mapping.entry).to.deep.include({
        txn_type: 'sell_security',
        quantity: '3',
        amount_usd: '604.11',
        fee_usd: '0.60',
        metadata: {
          cl_ord_id: 'CL-1',
          exchange: 'NASDAQ',
          avg_px: '201.37',
          bundled_fee: '0.60',
          cash_movement: '603.51',
        },
      });
      expect(linesOf(mapping)).to.deep.equal(['1100 Dr 604.11', '2010 Cr 604.11', '2010 Dr 0.60', '4010 Cr 0.60']);
    });

    it('a partial fill posts what executed; an order that executed nothing is skipped', () => {
      const partial = mapOrder(
        order({ ordStatus: 'PARTIALLY_FILLED', cumQty: '50', netSettle: '735.60' }),
        'UAE-1',
        PEG,
      );
      expect(partial.kind === 'entry' && partial.entry).to.include({ quantity: '50', original_amount: '734.50' });
      expect(
        mapOrder(order({ ordStatus: 'CANCELLED', cumQty: '0', avgPx: null, netSettle: '0' }), 'UAE-1', PEG),
      ).to.deep.equal({
        kind: 'skipped',
        reason: { code: 'nothing_executed', detail: { status: 'CANCELLED' } },
      });
    });

    it('a buy with no fee posts no fee lines', () => {
      expect(linesOf(mapOrder(order({ netSettle: '1469' }), 'UAE-1', PEG))).to.deep.equal([
        '1200 Dr 400.00',
        '1020 Cr 400.00',
        '2020 Dr 400.00',
        '2100 Cr 400.00',
      ]);
    });

    it('what cannot be posted is rejected with the reason', () => {
      const reasons = [
        order({ avgPx: null }),
        order({ netSettle: '1468.99' }),
        order({ side: 'SELL', netSettle: '1469.01' }),
        order({ currency: 'GBP' }),
        order({ cumQty: '0.000000001' }),
        order({ ordQty: '-100' }),
        order({ cumQty: '101' }),
        order({ tradeDate: '2026/01/20' }),
      ].map((o) => {
        const m = mapOrder(o, 'UAE-1', PEG);
        expect(m.kind, JSON.stringify(o)).to.equal('rejected');
        return m.kind === 'rejected' ? m.reason : null;
      });
      expect(reasons).to.deep.equal([
        { code: 'missing_price', detail: { field: 'avgPx', value: null } },
        { code: 'negative_fee', detail: { side: 'BUY', net_settle: '1468.99', executed: '1469.00' } },
        { code: 'negative_fee', detail: { side: 'SELL', net_settle: '1469.01', executed: '1469.00' } },
        { code: 'unsupported_currency', detail: { currency: 'GBP', currencies: ['AED', 'USD'] } },
        {
          code: 'invalid_quantity',
          detail: { field: 'cumQty', value: '0.000000001', rule: 'a non-negative quantity of at most 8 places' },
        },
        {
          code: 'invalid_quantity',
          detail: { field: 'ordQty', value: '-100', rule: 'a non-negative quantity of at most 8 places' },
        },
        {
          code: 'invalid_quantity',
          detail: { field: 'cumQty', value: '101', ord_qty: '100', rule: 'at most the quantity ordered' },
        },
        { code: 'invalid_date', detail: { field: 'tradeDate', value: '2026/01/20', rule: CALENDAR_DATE_RULE } },
      ]);
    });
  });

  it('a symbol that is no ticker (markup) is rejected when drafted, by the rule manual entry keeps', () => {
    const drafted = draftOf(
      mapOrder(order({ symbol: '<img src=x onerror=alert(1)>' }), 'UAE-1', PEG),
      DEFAULT_JOB_SETTINGS,
    );
    expect(drafted).to.have.property('outcome', 'rejected');
    expect('reason' in drafted && drafted.reason.code).to.equal('validation_error');
    expect(JSON.stringify(drafted)).to.include('/symbol');
  });

  it('no mapping ever posts to 4020 (custody fee revenue): no uaefeed record is a custody fee', () => {
    const mappings = [
      mapCashTransfer(transfer(), CUSTOMER, PEG),
      mapCashTransfer(transfer({ type: 'WITHDRAW', currency: 'USD', cashAccountNumber: '7000001-USD' }), CUSTOMER, PEG),
      mapOrder(order(), 'UAE-1', PEG),
      mapOrder(order({ side: 'SELL', netSettle: '1466.80' }), 'UAE-1', PEG),
      mapOrder(order({ currency: 'USD' }), 'UAE-1', PEG),
    ];
    const accounts = mappings.flatMap((m) => {
      const drafted = draftOf(m, DEFAULT_JOB_SETTINGS);
      return 'draft' in drafted ? drafted.draft.lines.map((l) => l.accountCode) : [];
    });
    expect(accounts).to.have.length.greaterThan(10);
    expect(accounts).to.not.include('4020');
  });
});
