import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { usPriceOn } from '../data/catalog.js';
import { isIsoDate, isIsoMonth } from '../data/dates.js';
import type { SandboxDataset } from '../data/generate.js';
import { CUSIPS, nominalFees, parseQtyMicro } from '../data/india.js';
import {
  dailyLedgerCsv,
  dailyLedgerRows,
  usbrokerBalance,
  usbrokerFirmAccountOf,
  usbrokerFirmBalance,
  usbrokerPositions,
  usbrokerQuotes,
  usbrokerStatement,
  type IndiaDataset,
} from '../data/india-views.js';
import { formatMinor } from '../data/money.js';
import {
  BadRequest,
  bearerOf,
  encodeJson,
  intParam,
  readJsonBody,
  readTextBody,
  type Reply,
  type UpstreamHandler,
} from './common.js';

export const USBROKER_LIMIT_MAX = 100;

export interface UsbrokerSandboxAuth {
  clientId: string;
  clientSecret: string;
  firmId: string;
  tokenTtlSeconds: number;
}

const error = (status: number, code: string, message: string): Reply => ({ status, body: { error: code, message } });
const TOKENS_MAX = 10_000;

const accountOf = (url: URL) => /^\/v1\/accounts\/([^/]+)(\/[a-z]+)?$/.exec(url.pathname);

/** The customer a request is about: the account in its path, or its `account_no` filter. */
function customerOf(india: IndiaDataset, url: URL) {
  const match = accountOf(url);
  const account = match?.[1] === undefined ? url.searchParams.get('account_no') : decodeURIComponent(match[1]);
  const customer = account === null ? undefined : india.find(account);
  return customer !== undefined && customer.usbroker_account_no === account ? customer : null;
}

/** The client-credentials grant: a bearer token for `tokenTtlSeconds` (`tokens`: live ones, expiry in ms). */
async function token(
  req: IncomingMessage,
  auth: UsbrokerSandboxAuth,
  tokens: Map<string, number>,
  now: () => number,
): Promise<Reply> {
  const form = new URLSearchParams(await readTextBody(req));
  if (form.get('grant_type') !== 'client_credentials')
    return {
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' },
    };
  if (form.get('client_id') !== auth.clientId || form.get('client_secret') !== auth.clientSecret) {
    return { status: 401, body: { error: 'invalid_client', error_description: 'client id or secret is wrong' } };
  }
  if (tokens.size >= TOKENS_MAX)
    for (const [t, expiresAt] of tokens) if (expiresAt <= now() || tokens.size >= TOKENS_MAX) tokens.delete(t);
  const accessToken = randomBytes(24).toString('base64url');
  tokens.set(accessToken, now() + auth.tokenTtlSeconds * 1000);
  return { status: 200, body: { access_token: accessToken, expires_in: auth.tokenTtlSeconds, token_type: 'Bearer' } };
}

/** Up to `limit` of `all` (in id order) after `after_id`. */
const cursorPage = <T>(url: URL, all: readonly T[], idOf: (item: T) => string): Reply => {
  const limit = intParam(url, 'limit', USBROKER_LIMIT_MAX, 1, USBROKER_LIMIT_MAX);
  if (limit === null) return error(400, 'invalid_request', `limit is 1-${USBROKER_LIMIT_MAX}`);
  const after = url.searchParams.get('after_id');
  const items = after === null || after === '' ? all : all.filter((item) => idOf(item) > after);
  return { status: 200, body: items.slice(0, limit) };
};

/** An order's fees before it is placed, at the period's last price: by quantity or by notional. */
async function preview(dataset: SandboxDataset, req: IncomingMessage): Promise<Reply> {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  const account = typeof body.account_no === 'string' ? dataset.india.find(body.account_no) : undefined;
  if (account === undefined || account.usbroker_account_no !== body.account_no)
    return error(404, 'account_not_found', 'no such account');
  const symbol = body.symbol;
  if (typeof symbol !== 'string' || !(symbol in CUSIPS)) return error(400, 'invalid_request', 'unknown symbol');
  const side = body.side;
  if (side !== 'BUY' && side !== 'SELL') return error(400, 'invalid_request', 'side is BUY or SELL');
  const decimal = /^\d+(\.\d{1,6})?$/;
  const price = usPriceOn(dataset.config.seed, dataset.period, symbol, dataset.period.to);
  let principal: bigint;
  let qtyMicro: bigint;
  if (typeof body.qty === 'string' && decimal.test(body.qty) && body.notional === undefined) {
    qtyMicro = parseQtyMicro(body.qty);
    principal = (qtyMicro * price * 2n + 1_000_000n) / 2_000_000n;
  } else if (typeof body.notional === 'string' && /^\d+(\.\d{1,2})?$/.test(body.notional) && body.qty === undefined) {
    const [whole = '0', fraction = ''] = body.notional.split('.');
    principal = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
    qtyMicro = (principal * 1_000_000n) / price;
  } else return error(400, 'invalid_request', 'exactly one of qty and notional, a decimal string');
  const fees = nominalFees(side, principal, qtyMicro);
  return {
    status: 200,
    body: {
      est_commission: formatMinor(fees.commission),
      sec_fee: formatMinor(fees.sec),
      taf_fee: formatMinor(fees.taf),
      ifsca_fee: formatMinor(fees.ifsca),
    },
  };
}

/** `/v1/accounts/{account_no}[/part]`: the firm's account (its balance only) or a customer's. */
function readAccount(dataset: SandboxDataset, firmId: string, match: RegExpExecArray, url: URL): Reply {
  const { india } = dataset;
  const periodTo = dataset.period.to;
  if (decodeURIComponent(match[1]!) === usbrokerFirmAccountOf(firmId)) {
    if (match[2] === '/balance') return { status: 200, body: usbrokerFirmBalance(india.all(), periodTo) };
    if (match[2] === undefined)
      return { status: 200, body: { account_no: usbrokerFirmAccountOf(firmId), status: 'active' } };
    return error(404, 'not_found', 'the firm account answers its balance only');
  }
  const customer = customerOf(india, url);
  if (customer === null) return error(404, 'account_not_found', 'no such account');
  const data = india.dataOf(customer);
  switch (match[2]) {
    case undefined:
      return { status: 200, body: data.account };
    case '/balance':
      return { status: 200, body: usbrokerBalance(data, periodTo) };
    case '/positions':
      return { status: 200, body: usbrokerPositions(dataset.config, data, periodTo) };
    case '/orders': {
      const status = url.searchParams.get('status');
      return cursorPage(
        url,
        status === null || status === '' ? data.orders : data.orders.filter((o) => o.status === status),
        (o) => o.order_id,
      );
    }
    case '/statement': {
      const month = url.searchParams.get('month') ?? '';
      if (!isIsoMonth(month)) return error(400, 'invalid_request', 'month is YYYY-MM');
      return { status: 200, body: usbrokerStatement(data, month) };
    }
    default:
      return error(404, 'not_found', 'no such endpoint');
  }
}

/** `/v1/funding/wires`: one account's wires, or every account's, in transfer_id order; IN or OUT. */
function readWires(india: IndiaDataset, url: URL): Reply {
  const account = url.searchParams.get('account_no');
  const direction = url.searchParams.get('direction');
  if (direction !== null && direction !== '' && direction !== 'IN' && direction !== 'OUT')
    return error(400, 'invalid_request', 'direction is IN or OUT');
  // One account's wires are its own records, kept in transfer_id order: no walk over every customer.
  const customer = account === null || account === '' ? undefined : customerOf(india, url);
  const wires =
    customer === undefined
      ? india
          .all()
          .flatMap((d) => d.wires)
          .sort((a, b) => (a.transfer_id < b.transfer_id ? -1 : 1))
      : customer === null
        ? []
        : india.dataOf(customer).wires;
  return cursorPage(
    url,
    direction === null || direction === '' ? wires : wires.filter((w) => w.direction === direction),
    (w) => w.transfer_id,
  );
}

/** `/v1/reports/daily-ledger`: the firm's rows of one day, as CSV. */
function readDailyLedger(india: IndiaDataset, firmId: string, url: URL): Reply {
  const date = url.searchParams.get('date') ?? '';
  const firm = url.searchParams.get('firm') ?? '';
  if (!isIsoDate(date)) return error(400, 'invalid_request', 'date is YYYY-MM-DD');
  if (firm !== firmId) return error(404, 'firm_not_found', 'no such firm');
  return {
    status: 200,
    body: null,
    text: {
      contentType: 'text/csv; charset=utf-8',
      content: dailyLedgerCsv(dailyLedgerRows(india.all(), date, firm)),
    },
  };
}

/** The usbroker sandbox (formats ours: docs/upstreams/usbroker.md). */
export function createUsbrokerHandler(
  dataset: SandboxDataset,
  auth: UsbrokerSandboxAuth,
  now: () => number = Date.now,
): UpstreamHandler {
  const india = dataset.india;
  const tokens = new Map<string, number>();

  async function answer(req: IncomingMessage, url: URL): Promise<Reply> {
    try {
      if (url.pathname === '/oauth2/token')
        return req.method === 'POST'
          ? await token(req, auth, tokens, now)
          : error(405, 'method_not_allowed', 'POST only');
      const bearer = bearerOf(req);
      const expiresAt = bearer === null ? undefined : tokens.get(bearer);
      if (expiresAt === undefined) return error(401, 'invalid_token', 'access token is missing or unknown');
      if (expiresAt <= now()) return error(401, 'token_expired', 'access token expired');
      if (url.pathname === '/v1/orders/preview')
        return req.method === 'POST' ? await preview(dataset, req) : error(405, 'method_not_allowed', 'POST only');
    } catch (e) {
      if (e instanceof BadRequest) return error(400, 'invalid_request', e.message);
      throw e;
    }
    if (req.method !== 'GET') return error(405, 'method_not_allowed', 'GET only');
    const match = accountOf(url);
    if (match !== null) return readAccount(dataset, auth.firmId, match, url);
    if (url.pathname === '/v1/funding/wires') return readWires(india, url);
    if (url.pathname === '/v1/quotes') {
      const symbols = (url.searchParams.get('symbols') ?? '').split(',').filter((s) => s !== '');
      return { status: 200, body: usbrokerQuotes(dataset.config, symbols, dataset.period.to) };
    }
    if (url.pathname === '/v1/reports/daily-ledger') return readDailyLedger(india, auth.firmId, url);
    return error(404, 'not_found', 'no such endpoint');
  }

  return {
    name: 'usbroker',
    customerOf: (url) => customerOf(india, url),
    answer,
    internalError: () => error(500, 'internal_error', 'internal error'),
    canExpireToken: (req, url) => bearerOf(req) !== null && url.pathname !== '/oauth2/token',
    expireToken(req) {
      const bearer = bearerOf(req);
      if (bearer !== null) tokens.delete(bearer);
      return error(401, 'token_expired', 'access token expired');
    },
    encode: encodeJson,
    malform: (reply) =>
      reply.text === undefined
        ? { status: reply.status, body: malformJson(reply.body) }
        : malformCsv(reply, reply.text),
  };
}

/** The daily-ledger CSV malformed: the first data row's amount is not a number; a header alone loses its amount column. */
function malformCsv(reply: Reply, text: NonNullable<Reply['text']>): Reply {
  const lines = text.content.split('\r\n');
  const header = lines[0]!.split(',');
  const at = header.indexOf('amount');
  if (lines.length > 2 && lines[1] !== '') {
    const cells = lines[1]!.split(',');
    cells[at] = 'not-a-number';
    lines[1] = cells.join(',');
  } else {
    header[at] = 'amount_missing';
    lines[0] = header.join(',');
  }
  return { ...reply, text: { ...text, content: lines.join('\r\n') } };
}

/** usbroker's numbers are decimal strings: the first one becomes an object. */
function malformJson(body: unknown): unknown {
  let done = false;
  const walk = (value: unknown): unknown => {
    if (done) return value;
    if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) {
      done = true;
      return { malformed: true };
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(body);
}
