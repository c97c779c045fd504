import { randomBytes, type KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { jwtVerify } from 'jose';
import { LosslessNumber } from 'lossless-json';
import { isIsoDate } from '../data/dates.js';
import type { RegistryCustomer, SandboxDataset } from '../data/generate.js';
import {
  ordersBetween,
  transfersBetween,
  uaefeedCashStatement,
  uaefeedCashSummary,
  uaefeedHoldingsStatement,
} from '../data/views.js';
import {
  BadRequest,
  bearerOf,
  encodeLossless,
  intParam,
  paginate,
  readJsonBody,
  type Reply,
  type UpstreamHandler,
} from './common.js';

/** What the uaefeed sandbox accepts as its registered app. */
export interface UaefeedSandboxAuth {
  appKey: string;
  appSecret: string;
  instCode: string;
  /** The only `userId` accepted; null: any non-empty one. */
  userId: string | null;
  /** Verifies the RS256 assertion. */
  publicKey: KeyObject;
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
}

export const UAEFEED_PAGE_SIZE_DEFAULT = 100;
export const UAEFEED_PAGE_SIZE_MAX = 1_000;
/** An assertion may live 24 h; a minute of clock skew is tolerated. */
const ASSERTION_LIFETIME_MAX_S = 24 * 60 * 60 + 60;
const CLOCK_TOLERANCE_S = 60;
/** Live tokens kept; past it the expired ones are dropped, then the oldest. */
const TOKENS_MAX = 10_000;

/** Fields that uaefeed writes as JSON numbers (from our decimal strings, exactly). */
const NUMBER_FIELDS = new Set([
  'amount',
  'ordQty',
  'cumQty',
  'avgPx',
  'netSettle',
  'balance',
  'blockedAmount',
  'buyingPower',
  'cashForWithdrawal',
  'unsettledSales',
  'tradeOpeningBalance',
  'settledOpeningBalance',
  'deposit',
  'withdraw',
  'buy',
  'sell',
  'other',
  'tradeClosingBalance',
  'settledClosingBalance',
  'debit',
  'credit',
  'tradeBalance',
  'settledBalance',
  'totalHolding',
  'totalAmount',
  'quantity',
]);

/** A view with its amounts as raw JSON numbers (LosslessNumber: written as their exact text). */
export function toWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWire);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = NUMBER_FIELDS.has(key) && typeof field === 'string' ? new LosslessNumber(field) : toWire(field);
  }
  return out;
}

const ok = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  status: 'SUCCESS',
  reason: null,
  rejectCode: null,
  ...fields,
});
const failed = (status: number, rejectCode: string, reason: string): Reply => ({
  status,
  body: { status: 'FAILED', reason, rejectCode },
});

interface Expiring {
  expiresAt: number;
}

class TokenStore {
  readonly access = new Map<string, Expiring>();
  readonly refresh = new Map<string, Expiring>();
  constructor(private readonly auth: UaefeedSandboxAuth) {}

  issue(now: number) {
    this.#prune(now);
    const accessToken = randomBytes(24).toString('base64url');
    const refreshToken = randomBytes(24).toString('base64url');
    const accessTokenExpiresAt = now + this.auth.accessTokenTtlMs;
    const refreshTokenExpiresAt = now + this.auth.refreshTokenTtlMs;
    this.access.set(accessToken, { expiresAt: accessTokenExpiresAt });
    this.refresh.set(refreshToken, { expiresAt: refreshTokenExpiresAt });
    return { accessToken, refreshToken, accessTokenExpiresAt, refreshTokenExpiresAt, tokenType: 'Bearer' };
  }

  #prune(now: number): void {
    for (const map of [this.access, this.refresh]) {
      if (map.size < TOKENS_MAX) continue;
      for (const [token, { expiresAt }] of map) if (expiresAt <= now) map.delete(token);
      while (map.size >= TOKENS_MAX) map.delete(map.keys().next().value as string);
    }
  }
}

function basicOf(req: IncomingMessage): { user: string; password: string } | null {
  const match = /^Basic (\S+)$/i.exec(req.headers.authorization ?? '');
  if (match?.[1] === undefined) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The app's key and secret (Basic) checked: null when right, else the refusal. */
function checkClient(req: IncomingMessage, auth: UaefeedSandboxAuth): Reply | null {
  const basic = basicOf(req);
  if (basic === null || basic.user !== auth.appKey || basic.password !== auth.appSecret) {
    return failed(401, 'INVALID_CLIENT', 'app key and secret (Basic) are missing or wrong');
  }
  return null;
}

/** `/trade/auth/token`: the app's RS256 assertion (its institution, a user of it, 24 h at most) for a token pair. */
async function token(
  req: IncomingMessage,
  auth: UaefeedSandboxAuth,
  tokens: TokenStore,
  now: () => number,
): Promise<Reply> {
  const refused = checkClient(req, auth);
  if (refused !== null) return refused;
  const { assertion } = (await readJsonBody(req)) as { assertion?: unknown };
  if (typeof assertion !== 'string') return failed(400, 'INVALID_PARAMETER', 'assertion is required');
  try {
    const { payload } = await jwtVerify(assertion, auth.publicKey, {
      algorithms: ['RS256'],
      issuer: auth.appKey,
      requiredClaims: ['iat', 'exp'],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(now()),
    });
    if (payload.instCode !== auth.instCode) return failed(401, 'INVALID_ASSERTION', 'instCode is not this institution');
    if (
      typeof payload.userId !== 'string' ||
      payload.userId === '' ||
      (auth.userId !== null && payload.userId !== auth.userId)
    ) {
      return failed(401, 'INVALID_ASSERTION', 'userId is not a user of this institution');
    }
    if ((payload.exp ?? 0) - (payload.iat ?? 0) > ASSERTION_LIFETIME_MAX_S)
      return failed(401, 'INVALID_ASSERTION', 'assertion lives longer than 24 h');
  } catch {
    return failed(401, 'INVALID_ASSERTION', 'assertion signature, issuer or expiry is not valid');
  }
  return { status: 200, body: ok(tokens.issue(now())) };
}

/** `/trade/auth/token/refresh`: a live refresh token, spent, for a new pair. */
async function refresh(
  req: IncomingMessage,
  auth: UaefeedSandboxAuth,
  tokens: TokenStore,
  now: () => number,
): Promise<Reply> {
  const refused = checkClient(req, auth);
  if (refused !== null) return refused;
  const { refreshToken } = (await readJsonBody(req)) as { refreshToken?: unknown };
  if (typeof refreshToken !== 'string') return failed(400, 'INVALID_PARAMETER', 'refreshToken is required');
  const known = tokens.refresh.get(refreshToken);
  // Single use: spent whatever happens next.
  tokens.refresh.delete(refreshToken);
  if (known === undefined || known.expiresAt <= now())
    return failed(401, 'INVALID_REFRESH_TOKEN', 'refresh token is unknown, used or expired');
  return { status: 200, body: ok(tokens.issue(now())) };
}

type Read = (customer: RegistryCustomer, url: URL) => Reply;

/** A paged list of the customer's records between `fromDate` and `toDate`. */
const list =
  (records: (customer: RegistryCustomer, from?: string, to?: string) => unknown[]): Read =>
  (customer, url) => {
    const from = url.searchParams.get('fromDate') ?? undefined;
    const to = url.searchParams.get('toDate') ?? undefined;
    if ((from !== undefined && !isIsoDate(from)) || (to !== undefined && !isIsoDate(to))) {
      return failed(400, 'INVALID_PARAMETER', 'fromDate and toDate are YYYY-MM-DD');
    }
    const pageNumber = intParam(url, 'pageNumber', 1, 1, 1_000_000);
    const pageSize = intParam(url, 'pageSize', UAEFEED_PAGE_SIZE_DEFAULT, 1, UAEFEED_PAGE_SIZE_MAX);
    if (pageNumber === null || pageSize === null)
      return failed(400, 'INVALID_PARAMETER', `pageNumber is 1 or more, pageSize 1-${UAEFEED_PAGE_SIZE_MAX}`);
    const page = paginate(records(customer, from, to), pageNumber, pageSize);
    return {
      status: 200,
      body: ok({
        pageNumber,
        pageSize,
        totalRecords: page.total,
        hasNextPage: page.next !== null,
        list: toWire(page.items),
      }),
    };
  };

/** A statement of the customer's `month` of `year`. */
const monthly =
  (statement: (customer: RegistryCustomer, year: number, month: number) => object): Read =>
  (customer, url) => {
    const month = intParam(url, 'month', null, 1, 12);
    const year = intParam(url, 'year', null, 1900, 9999);
    if (month === null || year === null) return failed(400, 'INVALID_PARAMETER', 'month (1-12) and year are required');
    return { status: 200, body: ok(toWire(statement(customer, year, month)) as Record<string, unknown>) };
  };

/** The reads about one customer, by path. */
const readsOf = (dataset: SandboxDataset): Record<string, Read> => ({
  '/v1.2/cash/transfers': list((c, from, to) => transfersBetween(dataset.dataOf(c), from, to)),
  '/v1.2/order/list': list((c, from, to) => ordersBetween(dataset.dataOf(c), from, to)),
  '/v1.2/cash/summary': (customer) => ({
    status: 200,
    body: ok({ list: toWire(uaefeedCashSummary(dataset.dataOf(customer), dataset.period.to)) }),
  }),
  '/v1.2/statement/cash': monthly((c, year, month) => uaefeedCashStatement(dataset.dataOf(c), year, month)),
  '/v1.2/statement/positions': monthly((c, year, month) =>
    uaefeedHoldingsStatement(dataset.config, dataset.dataOf(c), year, month),
  ),
});

/** The uaefeed sandbox: the token chain, the envelope on every answer, amounts as JSON numbers. */
export function createUaefeedHandler(
  dataset: SandboxDataset,
  auth: UaefeedSandboxAuth,
  now: () => number = Date.now,
): UpstreamHandler {
  const tokens = new TokenStore(auth);
  const reads = readsOf(dataset);

  function customerOf(url: URL): RegistryCustomer | null {
    const number = url.searchParams.get('customerNumber');
    const customer = number === null ? undefined : dataset.find(number);
    return customer !== undefined && customer.uaefeed_customer_number === number ? customer : null;
  }

  async function answer(req: IncomingMessage, url: URL): Promise<Reply> {
    try {
      if (url.pathname === '/trade/auth/token' || url.pathname === '/trade/auth/token/refresh') {
        if (req.method !== 'POST') return failed(405, 'METHOD_NOT_ALLOWED', 'POST only');
        return await (url.pathname === '/trade/auth/token'
          ? token(req, auth, tokens, now)
          : refresh(req, auth, tokens, now));
      }
    } catch (error) {
      if (error instanceof BadRequest) return failed(400, 'INVALID_PARAMETER', error.message);
      throw error;
    }
    const read = reads[url.pathname];
    if (read === undefined) return failed(404, 'NOT_FOUND', 'no such endpoint');
    if (req.method !== 'GET') return failed(405, 'METHOD_NOT_ALLOWED', 'GET only');
    const bearer = bearerOf(req);
    const known = bearer === null ? undefined : tokens.access.get(bearer);
    if (known === undefined) return failed(401, 'INVALID_TOKEN', 'access token is missing or unknown');
    if (known.expiresAt <= now()) return failed(401, 'TOKEN_EXPIRED', 'access token expired');
    if (!url.searchParams.get('customerNumber')) return failed(400, 'INVALID_PARAMETER', 'customerNumber is required');
    const customer = customerOf(url);
    if (customer === null) return failed(200, 'CUSTOMER_NOT_FOUND', 'no customer with this customerNumber');
    return read(customer, url);
  }

  return {
    name: 'uaefeed',
    customerOf,
    answer,
    internalError: () => failed(500, 'INTERNAL_ERROR', 'internal error'),
    canExpireToken: (req, url) => bearerOf(req) !== null && !url.pathname.startsWith('/trade/auth/'),
    expireToken(req) {
      const bearer = bearerOf(req);
      if (bearer !== null) tokens.access.delete(bearer);
      return failed(401, 'TOKEN_EXPIRED', 'access token expired');
    },
    encode: encodeLossless,
  };
}
