import { z } from 'zod';
import { decimalNumber, identifier, integerNumber, uaefeedDate } from './lossless.js';
import type {
  UaefeedCashStatement,
  UaefeedCashSummary,
  UaefeedCashTransfer,
  UaefeedHoldingsStatement,
  UaefeedOrder,
} from './types.js';

/**
 * The wire formats of uaefeed, validated at the boundary. Bodies arrive parsed by lossless-json,
 * so numbers are LosslessNumber here and leave as decimal strings (lossless.ts).
 */

/** On every answer, beside the data fields. */
export const envelopeSchema = z.object({
  status: z.enum(['SUCCESS', 'FAILED']),
  reason: z.string().nullish(),
  rejectCode: z.string().nullish(),
});

export const tokenSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  accessTokenExpiresAt: z.number().int().positive(),
  refreshTokenExpiresAt: z.number().int().positive(),
  tokenType: z.string().regex(/^bearer$/i, { message: 'expected tokenType Bearer' }),
});

const currency = z.string().regex(/^[A-Z]{3}$/, { message: 'expected an ISO 4217 currency code' });

/** Paging of our list endpoints: `pageNumber` (from 1) and `pageSize` asked, `hasNextPage` answered. */
export const pageSchema = z.object({
  pageNumber: integerNumber,
  pageSize: integerNumber,
  totalRecords: integerNumber,
  hasNextPage: z.boolean(),
});

export const cashTransferSchema = z.object({
  transferId: identifier,
  cashAccountNumber: identifier,
  type: z.enum(['DEPOSIT', 'WITHDRAW']),
  amount: decimalNumber,
  currency,
  status: z.enum(['COMPLETED', 'REJECTED']),
  valueDate: uaefeedDate,
}) satisfies z.ZodType<UaefeedCashTransfer, unknown>;

export const orderSchema = z.object({
  clOrdId: identifier,
  orderId: identifier,
  symbol: z.string().min(1),
  side: z.enum(['BUY', 'SELL']),
  ordQty: decimalNumber,
  cumQty: decimalNumber,
  avgPx: decimalNumber.nullable(),
  netSettle: decimalNumber,
  ordStatus: z.enum(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED']),
  tradeDate: uaefeedDate,
  currency,
  exchange: z.string().min(1),
}) satisfies z.ZodType<UaefeedOrder, unknown>;

export const cashSummarySchema = z.object({
  accountNumber: identifier,
  currency,
  balance: decimalNumber,
  blockedAmount: decimalNumber,
  buyingPower: decimalNumber,
  cashForWithdrawal: decimalNumber,
  lastUpdatedDate: uaefeedDate,
  unsettledSales: decimalNumber,
}) satisfies z.ZodType<UaefeedCashSummary, unknown>;

const cashStatementLineSchema = z.object({
  transactionDate: uaefeedDate,
  valueDate: uaefeedDate,
  description: z.string(),
  debit: decimalNumber,
  credit: decimalNumber,
  tradeBalance: decimalNumber,
  settledBalance: decimalNumber,
});

const cashStatementAccountSchema = z.object({
  cashAccountNumber: identifier,
  currency,
  tradeOpeningBalance: decimalNumber,
  settledOpeningBalance: decimalNumber,
  deposit: decimalNumber,
  withdraw: decimalNumber,
  buy: decimalNumber,
  sell: decimalNumber,
  other: decimalNumber,
  tradeClosingBalance: decimalNumber,
  settledClosingBalance: decimalNumber,
  list: z.array(cashStatementLineSchema),
});

export const cashStatementSchema = z.object({
  customerNumber: identifier,
  month: integerNumber.refine((m) => m >= 1 && m <= 12, { message: 'expected a month 1-12' }),
  year: integerNumber,
  list: z.array(cashStatementAccountSchema),
}) satisfies z.ZodType<UaefeedCashStatement, unknown>;

const holdingMovementSchema = z.object({
  transactionDate: uaefeedDate,
  narration: z.string(),
  quantity: decimalNumber,
  amount: decimalNumber,
});

const holdingSymbolSchema = z.object({
  symbol: z.string().min(1),
  totalHolding: decimalNumber,
  totalAmount: decimalNumber,
  list: z.array(holdingMovementSchema),
});

const holdingExchangeSchema = z.object({
  exchange: z.string().min(1),
  list: z.array(holdingSymbolSchema),
});

const holdingAccountSchema = z.object({
  accountNumber: identifier,
  securityType: z.enum(['CS', 'OPT', 'BND', 'FND']),
  list: z.array(holdingExchangeSchema),
});

export const holdingsStatementSchema = z.object({
  list: z.array(holdingAccountSchema),
}) satisfies z.ZodType<UaefeedHoldingsStatement, unknown>;

export const listOf = <S extends z.ZodType>(item: S) => z.object({ list: z.array(item) });
