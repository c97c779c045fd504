import { expect } from 'chai';
import nock from 'nock';
import { expectError, startApi, type TestApi } from './support.js';

// Importing nock intercepts every HTTP request of this process: off until this suite needs it.
nock.restore();

const REMIT = 'http://remit.test';
const STORED_DATA_REPORTS = [
  '/v1/india/lrs?fy=2024-25',
  '/v1/india/capital-gains?fy=2024-25',
  '/v1/india/dividends?fy=2024-25',
  '/v1/india/schedule-fa?fy=2024-25',
  '/v1/india/settlement-audit?fy=2024-25',
  '/v1/india/broker-fees',
  '/v1/india/fx-margin?fy=2024-25',
];

/** A paid remittance as sync-remit stores it: INR 8,00,000 at 0.012 USD per INR (mid 0.0121), TCS 20,000.00 collected. */
async function paidRemittance(api: TestApi, orderId: string, customerId: string, remittedOn: string): Promise<void> {
  await api.db.raw(
    `INSERT INTO remittances (order_id, customer_id, remit_customer_id, pan, status, purpose_code, amount_inr, amount_usd, quote_id, fx_rate,
                              mid_rate, mid_rate_source, mid_rate_at, tcs_inr, paid_at, settled_at, utr, remitted_on, order_created_at, order_updated_at, status_history)
     VALUES (?, ?, 'cust_1', 'ABCDE1234F', 'paid', 'S0001', 800000.00, 9600.00, 'quote_1', 0.012, 0.0121, 'remit:fx_rates', now(), 20000.00,
             ?::date + time '10:00', ?::date + time '16:00', 'UTR0000000000001', ?, now(), now(), '[]')`,
    [orderId, customerId, remittedOn, remittedOn, remittedOn],
  );
}

/** The required parameters of a report besides `fy`: the tax pack's PAN. */
const otherParams = (path: string) => (path === '/v1/india/tax-pack' ? '&pan=ABCDE1234F' : '');

describe('India reports on stored data (api)', function () {
  this.timeout(60_000);

  describe('on the India book', () => {
    let api: TestApi;
    before(async () => {
      if (!nock.isActive()) nock.activate();
      nock.disableNetConnect();
      nock.enableNetConnect('127.0.0.1');
      api = await startApi({
        env: { ENTITY_ID: 'ENTITY_IND_IFSC', REMIT_BASE_URL: REMIT, REMIT_API_KEY: 'remit-key', FX_SPREAD_BPS: '75' },
      });
      await api.db.raw("INSERT INTO customers (customer_id) VALUES ('IND-1') ON CONFLICT DO NOTHING");
      await paidRemittance(api, 'order_1', 'IND-1', '2024-05-10');
    });
    after(async () => {
      nock.cleanAll();
      nock.enableNetConnect();
      nock.restore();
      await api?.close();
    });

    it('LRS: INR 8 lakh in the 7-lakh era: TCS on 1 lakh at 20 % = 20,000.00, as collected', async () => {
      const reply = await api.get('/v1/india/lrs?fy=2024-25', { token: 'ledger' });
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.body.pans[0]).to.deep.include({
        pan: 'ABCDE1234F',
        remitted_usd: '9600.00',
        status: 'ok',
        estimated_tcs_inr: '20000.00',
        actual_tcs_inr: '20000.00',
        difference_inr: '0.00',
      });
    });

    it('settlement audit: the 6-hour lag, no UTR missing, purpose S0001', async () => {
      const reply = await api.get('/v1/india/settlement-audit?fy=2024-25', { token: 'ledger' });
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.body.lag).to.deep.equal({
        count: 1,
        mean_hours: '6.00',
        median_hours: '6.00',
        p95_hours: '6.00',
        max_hours: '6.00',
      });
      expect(reply.body.purpose_codes).to.deep.equal([{ purpose_code: 'S0001', count: 1, amount_usd: '9600.00' }]);
    });

    it('fx-margin with remit down: realized null with a warning, the margin in bps still shown', async () => {
      nock(REMIT)
        .get(/.*/)
        .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
        .persist();
      const reply = await api.get('/v1/india/fx-margin?fy=2024-25', { token: 'ledger' });
      nock.cleanAll();
      expect(reply.status, reply.text).to.equal(200);
      // (0.0121 − 0.012) / 0.0121 × 10,000 = 82.64 bps.
      expect(reply.body.remittances[0]).to.deep.include({
        order_id: 'order_1',
        margin_bps: '82.64',
        realized: null,
        assumed_usd: null,
      });
      expect(reply.body).to.deep.include({ remit_reachable: false, configured_bps: '75' });
      expect(reply.body.warnings).to.deep.equal([
        'remit is unreachable or not configured: realized margins are null; the assumed accrual is shown',
      ]);
    });

    it('a bad fy or page is a 400 in the error shape: not YYYY-YY, or years not consecutive; schedule-fa requires one; a limit past 500', async () => {
      for (const path of [
        '/v1/india/lrs?fy=2024-26',
        '/v1/india/capital-gains?fy=2024',
        '/v1/india/dividends?fy=24-25',
        '/v1/india/schedule-fa',
        '/v1/india/capital-gains?fy=2024-25&limit=501',
        '/v1/india/schedule-fa?fy=2024-25&limit=501',
        '/v1/india/broker-fees?limit=0',
        '/v1/india/broker-fees?offset=-1',
      ]) {
        expectError(await api.get(path, { token: 'ledger' }), 400, 'validation_error');
      }
    });

    it('an fy outside the years the book answers (2015-16 to 2198-99) is a 400 naming the range on every report taking one; the first and last answer', async () => {
      // Every operation the document gives an `fy`, so a report added later is held to the same bound.
      const document = (await api.get('/docs/openapi.json')).body as {
        paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
      };
      const reports = Object.entries(document.paths)
        .filter(([, item]) => item.get?.parameters?.some((p) => p.name === 'fy' && p.in === 'query'))
        .map(([path]) => path);
      expect(reports).to.include.members([
        '/v1/india/lrs',
        '/v1/india/capital-gains',
        '/v1/india/fx-margin',
        '/v1/india/remit',
      ]);
      for (const fy of ['1900-01', '2014-15', '2199-00', '9999-00']) {
        const declared = await api.put('/v1/india/lrs/prior-usage/ABCDE1234F', {
          fy,
          amount_usd: '1.00',
          amount_inr: '1.00',
        });
        const asked = reports.map(
          async (path) => [path, await api.get(`${path}?fy=${fy}${otherParams(path)}`, { token: 'ledger' })] as const,
        );
        for (const [what, reply] of [['declared', declared] as const, ...(await Promise.all(asked))]) {
          expectError(reply, 400, 'validation_error');
          expect(reply.body.error.message, `${what} ${fy}`).to.include('from 2015-16 to 2198-99');
        }
      }
      for (const fy of ['2015-16', '2198-99']) {
        for (const path of reports) {
          const reply = await api.get(`${path}?fy=${fy}${otherParams(path)}`, { token: 'ledger' });
          expect(reply.status, `${path}?fy=${fy}: ${reply.text}`).to.equal(200);
        }
      }
    });

    it('the tax pack of a PAN: 200 in its schema, the TCS collected on its remittance; CSV one row per figure; an unknown PAN 404, a bad PAN or fy 400', async () => {
      const reply = await api.get('/v1/india/tax-pack?pan=ABCDE1234F&fy=2024-25', { token: 'ledger' });
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.body).to.deep.include({ pan: 'ABCDE1234F', fy: '2024-25', customer_ids: ['IND-1'] });
      expect(reply.body.ScheduleTCS.TotalTCS).to.deep.equal({
        inr: '20000.00',
        usd: null,
        rate: null,
        rate_date: null,
        rule: 'tcs_collected',
      });
      const csv = await api.get('/v1/india/tax-pack?pan=ABCDE1234F&fy=2024-25&format=csv', { token: 'ledger' });
      expect(csv.status, csv.text).to.equal(200);
      expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).to.equal('attachment; filename=tax-pack-ABCDE1234F-2024-25.csv');
      expect(csv.text.split('\r\n')).to.include.members([
        'field,value,inr,usd,rate,rate_date,rule',
        'ScheduleTCS.TotalTCS,,20000.00,,,,tcs_collected',
      ]);
      expectError(await api.get('/v1/india/tax-pack?pan=ZZZZZ9999Z&fy=2024-25', { token: 'ledger' }), 404, 'not_found');
      for (const path of [
        '/v1/india/tax-pack?pan=ABCDE1234&fy=2024-25',
        '/v1/india/tax-pack?pan=abcde1234f&fy=2024-25',
        '/v1/india/tax-pack?pan=ABCDE1234F&fy=2024-26',
        '/v1/india/tax-pack?pan=ABCDE1234F',
        '/v1/india/tax-pack?fy=2024-25',
        '/v1/india/tax-pack?pan=ABCDE1234F&fy=2024-25&format=pdf',
      ])
        expectError(await api.get(path, { token: 'ledger' }), 400, 'validation_error');
    });

    it('needs the read token (401 without)', async () => {
      expectError(await api.get('/v1/india/lrs?fy=2024-25'), 401, 'unauthorized');
    });

    it('a PAN’s declared LRS use elsewhere (admin): 201, then 200 replacing it; the LRS report counts it first against the threshold and with the book’s against the limit', async () => {
      const declaration = { fy: '2024-25', amount_usd: '6000.00', amount_inr: '500000.00', note: 'HDFC letter' };
      const first = await api.put('/v1/india/lrs/prior-usage/ABCDE1234F', { ...declaration, amount_usd: '1.00' });
      expect(first.status, first.text).to.equal(201);
      const replaced = await api.put('/v1/india/lrs/prior-usage/ABCDE1234F', declaration, {
        headers: { 'X-Ledger-Actor': 'ops@example.com' },
      });
      expect(replaced.status, replaced.text).to.equal(200);
      expect(replaced.body).to.deep.include({
        pan: 'ABCDE1234F',
        fy: '2024-25',
        amount_usd: '6000.00',
        amount_inr: '500000.00',
        note: 'HDFC letter',
        declared_by: 'api:ops@example.com',
      });
      const reply = await api.get('/v1/india/lrs?fy=2024-25', { token: 'ledger' });
      expect(reply.status, reply.text).to.equal(200);
      // 5 lakh declared + 8 lakh here = 13 lakh: 6 lakh above the 7-lakh threshold at 20 % = 1,20,000.00; 20,000.00 collected.
      // USD 6,000.00 + 9,600.00 = 15,600.00 of 250,000.00 used.
      expect(reply.body.pans[0]).to.deep.include({
        pan: 'ABCDE1234F',
        remitted_usd: '9600.00',
        lrs_used_share: '0.0624',
        lrs_headroom_usd: '234400.00',
        estimated_tcs_inr: '120000.00',
        actual_tcs_inr: '20000.00',
        difference_inr: '-100000.00',
      });
      expect(reply.body.totals.declared_prior_usd).to.equal('6000.00');
      // Another FY is untouched.
      expect((await api.get('/v1/india/lrs?fy=2025-26', { token: 'ledger' })).body.totals.declared_prior_usd).to.equal(
        '0.00',
      );
    });

    it('a declaration needs the admin token (403 with the read token), a PAN, a YYYY-YY fy and amounts in cents (400)', async () => {
      const declaration = { fy: '2024-25', amount_usd: '6000.00', amount_inr: '500000.00' };
      expectError(
        await api.put('/v1/india/lrs/prior-usage/ABCDE1234F', declaration, { token: 'ledger' }),
        403,
        'forbidden',
      );
      for (const [pan, body] of [
        ['ABCDE1234', declaration],
        ['ABCDE1234F', { ...declaration, fy: '2024-26' }],
        ['ABCDE1234F', { ...declaration, amount_usd: '-1.00' }],
        ['ABCDE1234F', { ...declaration, amount_inr: 500000 }],
        ['ABCDE1234F', { fy: '2024-25', amount_usd: '1.00' }],
      ] as const) {
        expectError(await api.put(`/v1/india/lrs/prior-usage/${pan}`, body), 400, 'validation_error');
      }
    });
  });

  describe('on the UAE book', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi();
    });
    after(async () => {
      await api?.close();
    });

    it('every stored-data report answers 200 with its schema, zero-valued', async () => {
      for (const path of STORED_DATA_REPORTS) {
        const reply = await api.get(path, { token: 'ledger' });
        expect(reply.status, `${path}: ${reply.text}`).to.equal(200);
      }
      // The UAE book knows no PAN: its tax pack is never found.
      expectError(await api.get('/v1/india/tax-pack?pan=ABCDE1234F&fy=2024-25', { token: 'ledger' }), 404, 'not_found');
      expect((await api.get('/v1/india/lrs?fy=2024-25', { token: 'ledger' })).body.totals).to.deep.include({
        pans: 0,
        remitted_usd: '0.00',
        estimated_tcs_inr: '0.00',
      });
      expect((await api.get('/v1/india/broker-fees?limit=10&offset=20', { token: 'ledger' })).body).to.deep.include({
        trades: 0,
        matched_share: '0',
        items: [],
        total: 0,
        limit: 10,
        offset: 20,
      });
      expect((await api.get('/v1/india/capital-gains?fy=2024-25', { token: 'ledger' })).body).to.deep.include({
        items: [],
        total: 0,
        limit: 50,
        offset: 0,
      });
    });
  });
});
