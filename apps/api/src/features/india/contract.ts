import { A2_NATURES, FY_PATTERN_SOURCE, FY_RULE, TAX_PACK_RULES } from '@ledger/india';
import {
  errorResponses,
  json,
  listEnvelope,
  nullable,
  object,
  paramRef,
  READ_ERRORS,
  ref,
  WRITE_ERRORS,
} from '../../openapi/components.js';
import { PATTERNS } from '../../openapi/patterns.js';
import { ADMIN, READ } from '../../openapi/security.js';
import type { JsonSchema, Parameter, Paths, Reference } from '../../openapi/types.js';

const TAG = ['india-reports'];

/** Money in USD or INR, or a share or rate: decimal strings, never JSON numbers. */
const MONEY: JsonSchema = ref('SignedAmount');
const MONEY_OR_NULL: JsonSchema = {
  type: ['string', 'null'],
  pattern: PATTERNS.signedAmount.pattern,
  description: 'Null when a rate or price it needs is missing (listed in `warnings`).',
};
const RATIO: JsonSchema = { type: 'string', pattern: PATTERNS.amount.pattern };
const RATIO_OR_NULL: JsonSchema = { type: ['string', 'null'], pattern: PATTERNS.signedAmount.pattern };
const TEXT: JsonSchema = { type: 'string' };
const TEXT_OR_NULL: JsonSchema = { type: ['string', 'null'] };
const DATE: JsonSchema = ref('Date');
const DATE_OR_NULL: JsonSchema = nullable('Date');
const COUNT: JsonSchema = { type: 'integer', minimum: 0 };
const array = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description && { description }),
});
const WARNINGS = array(
  TEXT,
  'What the report could not say and why: a missing rate or price (by date), a flagged or unmatched sale, an unreachable upstream. Never guessed.',
);
/** A report paged as a list: its own fields and the list envelope (`items` one page of `total`). */
function pagedReport(fields: Record<string, JsonSchema>, items: JsonSchema, description: string): JsonSchema {
  const envelope = listEnvelope(items, description);
  return {
    ...envelope,
    required: [...Object.keys(fields), ...(envelope.required ?? [])],
    properties: { ...fields, ...envelope.properties },
  };
}
const FY: JsonSchema = {
  type: 'string',
  pattern: FY_PATTERN_SOURCE,
  description: `The financial year (1 April – 31 March): ${FY_RULE}.`,
  examples: ['2024-25'],
};
const RATE_USED: JsonSchema = {
  anyOf: [
    object(
      { rate: RATIO, rate_date: DATE },
      'The SBI rate (INR per USD) used and the day it was published (the nearest earlier sheet when the day had none).',
    ),
    { type: 'null' },
  ],
};
/** A dividend's foreign tax credit figures (Rule 128 and the treaty), per dividend and summed per customer. */
const CREDIT_TOTALS = {
  treaty_cap_inr: {
    ...MONEY_OR_NULL,
    description: 'The treaty rate × the gross: the most the US tax can be credited (null when a rate is missing).',
  },
  credit_available_inr: {
    ...MONEY_OR_NULL,
    description:
      'The tax withheld up to the treaty cap. The filer further caps it at the Indian tax on the income at their slab, which the book does not know.',
  },
  not_creditable_inr: {
    ...MONEY_OR_NULL,
    description: 'Tax withheld above the treaty cap: not creditable in India (reclaimed from the US).',
  },
};
/** Which remittance, whose, when and how many rupees: the first fields of a remittance row. */
const REMITTANCE = { order_id: TEXT, customer_id: TEXT, remitted_on: DATE, amount_inr: MONEY };
const ERA: JsonSchema = { type: 'string', enum: ['before_2024_07_23', 'from_2024_07_23'] };
const PAN: JsonSchema = {
  type: 'string',
  // As the customers' and remittances' PAN columns check it.
  pattern: '^[A-Z]{5}[0-9]{4}[A-Z]$',
  description: 'India: Permanent Account Number (five letters, four digits, a letter).',
  examples: ['ABCDE1234F'],
};
/** A PAN's declared LRS use through other banks, as the reports answer it. */
const DECLARED_USAGE = {
  amount_usd: { ...MONEY, description: 'USD remitted elsewhere: counted against the LRS limit.' },
  amount_inr: {
    ...MONEY,
    description: 'INR remitted elsewhere: counted against the TCS threshold, before the book’s own.',
  },
  note: { type: ['string', 'null'] },
  declared_at: { type: 'string', format: 'date-time' },
  declared_by: ref('Actor'),
} satisfies Record<string, JsonSchema>;

/** A figure of the tax pack: INR, USD, the SBI rate and its date (null when it sums figures of several dates), the rule. */
const FIGURE_FIELDS = {
  inr: MONEY_OR_NULL,
  usd: MONEY_OR_NULL,
  rate: {
    ...RATIO_OR_NULL,
    description:
      'The SBI TT buying rate (INR per USD) taken; null when the figure sums several dates (its lines carry theirs).',
  },
  rate_date: { ...DATE_OR_NULL, description: 'The day of the SBI sheet taken.' },
  rule: {
    type: 'string',
    enum: Object.keys(TAX_PACK_RULES),
    description: 'The rule the figure follows: a key of `rules`.',
  },
} satisfies Record<string, JsonSchema>;
const FIGURE = object(FIGURE_FIELDS, 'A figure of the return, with its rate, the rate’s date and its rule.');
const figureWith = (extra: Record<string, JsonSchema>, description: string) =>
  object({ ...FIGURE_FIELDS, ...extra }, description);
const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
/** The s. 234C periods as Schedule CG names them (`os`: as Schedule OS does; the second differs). */
const dateRange = (names: 'cg' | 'os') =>
  object(
    Object.fromEntries(
      (names === 'cg'
        ? ['Upto15Of6', 'Upto15Of9', 'Up16Of9To15Of12', 'Up16Of12To15Of3', 'Up16Of3To31Of3']
        : ['Upto15Of6', 'Up16Of6To15Of9', 'Up16Of9To15Of12', 'Up16Of12To15Of3', 'Up16Of3To31Of3']
      ).map((k) => [k, FIGURE]),
    ),
    'Up to 15 June, 16 June–15 September, 16 September–15 December, 16 December–15 March, 16–31 March (s. 234C).',
  );
const CG_SECTION = {
  transfers: COUNT,
  FullConsideration: FIGURE,
  AquisitCost: FIGURE,
  CapgainonAssets: FIGURE,
} satisfies Record<string, JsonSchema>;
const COUNTRY = {
  CountryName: TEXT_OR_NULL,
  CountryCodeExcludingIndia: {
    ...TEXT_OR_NULL,
    description: 'The ITR utility’s country code (United States of America: 2); null with a warning when unknown.',
  },
} satisfies Record<string, JsonSchema>;
const TAX_PACK: JsonSchema = object(
  {
    pan: PAN,
    fy: TEXT,
    assessment_year: TEXT,
    customer_ids: array(
      TEXT,
      'The customers of the book under the PAN (the customers table, or remittances naming it).',
    ),
    ScheduleFA: object(
      {
        calendar_year: { type: 'integer' },
        period: object({ from: DATE, to: DATE }, 'The calendar year ending in the FY.'),
        DtlsForeignCustodialAcc: array(
          object(
            {
              customer_id: TEXT,
              ...COUNTRY,
              FinancialInstName: TEXT_OR_NULL,
              FinancialInstAddress: TEXT_OR_NULL,
              ZipCode: TEXT_OR_NULL,
              AccountNumber: TEXT_OR_NULL,
              Status: TEXT,
              AccOpenDate: DATE,
              PeakBalanceDuringPeriod: figureWith({ date: DATE }, 'The peak balance and its day.'),
              ClosingBalance: FIGURE,
              NatureOfAmount: {
                type: ['string', 'null'],
                enum: ['D', 'I', 'S', 'O', 'N', null],
                description:
                  'D dividend, I interest, S proceeds from sale or redemption, O other income, N none; null when credits of several natures (see `by_nature`).',
              },
              GrossAmtPaidCredited: FIGURE,
              by_nature: array(
                object(
                  { NatureOfAmount: { type: 'string', enum: ['D', 'I', 'S', 'O'] }, GrossAmtPaidCredited: FIGURE },
                  'The gross paid or credited of one nature.',
                ),
              ),
            },
            'Table A2: the broker cash account of one customer.',
          ),
        ),
        DtlsForeignEquityDebtInterest: array(
          object(
            {
              customer_id: TEXT,
              symbol: TEXT,
              ...COUNTRY,
              NameOfEntity: TEXT_OR_NULL,
              AddressOfEntity: TEXT_OR_NULL,
              ZipCode: TEXT_OR_NULL,
              NatureOfEntity: TEXT_OR_NULL,
              InterestAcquiringDate: DATE,
              InitialValOfInvstmnt: FIGURE,
              PeakBalanceDuringPeriod: figureWith(
                { date: DATE_OR_NULL },
                'The peak value and its day; null when a trading day held has no close (see `peak_lower_bound`).',
              ),
              peak_lower_bound: orNull(
                figureWith({ date: DATE }, 'The highest value on the days with a close: a lower bound of the peak.'),
              ),
              missing_close_days: array(DATE, 'Trading days held without a close.'),
              ClosingBalance: figureWith({ shares: RATIO }, 'Shares held at 31 December and their value.'),
              TotGrossAmtPaidCredited: FIGURE,
              TotGrossProceeds: FIGURE,
            },
            'Table A3: one holding (symbol) of one customer.',
          ),
        ),
      },
      'Schedule FA for the calendar year ending in the FY.',
    ),
    ScheduleCG: object(
      {
        ShortTermCapGain: object(
          {
            before_2024_07_23: object(CG_SECTION, 'Transfers before 2024-07-23.'),
            from_2024_07_23: object(CG_SECTION, 'Transfers on or after 2024-07-23.'),
          },
          'Short-term: taxed at the filer’s slab (ShortTermUnderAppRate).',
        ),
        LongTermCapGain: object(
          {
            before_2024_07_23: object(
              {
                ...CG_SECTION,
                tax_rate: RATIO,
                indexation: { type: 'boolean' },
                unindexed: object(
                  { AquisitCost: FIGURE, CapgainonAssets: FIGURE },
                  'The same transfers without indexation, for comparison.',
                ),
              },
              'Long-term before 2024-07-23: 20 % with indexation (AquisitCost and CapgainonAssets indexed).',
            ),
            from_2024_07_23: object(
              { ...CG_SECTION, tax_rate: RATIO, indexation: { type: 'boolean' } },
              'Long-term on or after 2024-07-23: 12.5 % without indexation.',
            ),
          },
          'Long-term gains.',
        ),
        AccruOrRecOfCG: object(
          {
            ShortTermUnderAppRate: object({ DateRange: dateRange('cg') }, 'Short-term gains by period.'),
            LongTermUnder20Per: object(
              { DateRange: dateRange('cg') },
              'Long-term gains before 2024-07-23 (indexed), by period.',
            ),
            LongTermUnder12_5Per: object({ DateRange: dateRange('cg') }, 'Long-term gains from 2024-07-23, by period.'),
          },
          'Schedule CG table F: gains by the s. 234C periods of their trade dates, before set-off of losses.',
        ),
        flagged_sales: array(
          object(
            {
              customer_id: TEXT,
              symbol: TEXT,
              txn_id: ref('TxnId'),
              txn_date: DATE,
              quantity: { type: ['string', 'null'] },
              reason: TEXT,
            },
            'A sale recost flagged (an oversell): no cost, no gain; left out of the figures.',
          ),
        ),
        lines: array(
          object(
            {
              customer_id: TEXT,
              symbol: TEXT,
              sell_txn_id: ref('TxnId'),
              lot_txn_id: ref('TxnId'),
              section: {
                type: 'string',
                enum: [
                  'short_term_before_2024_07_23',
                  'short_term_from_2024_07_23',
                  'long_term_before_2024_07_23',
                  'long_term_from_2024_07_23',
                ],
              },
              acquired_on: DATE,
              transferred_on: DATE,
              quantity: RATIO,
              months_held: COUNT,
              instrument_type: { type: ['string', 'null'], enum: ['share', 'fund_unit', null] },
              section_50aa: { type: ['string', 'null'], enum: ['applied', 'not_applied', null] },
              FullConsideration: FIGURE,
              AquisitCost: FIGURE,
              IndexedAquisitCost: orNull(
                figureWith(
                  {
                    acquisition_fy: TEXT,
                    acquisition_cii: { type: ['integer', 'null'] },
                    transfer_fy: TEXT,
                    transfer_cii: { type: ['integer', 'null'] },
                  },
                  'The cost indexed, with the index years.',
                ),
              ),
              CapgainonAssets: FIGURE,
            },
            'What one sale took from one lot.',
          ),
        ),
      },
      'Schedule CG: the FY’s transfers of US shares and fund units.',
    ),
    ScheduleOS: object(
      { DividendGross: FIGURE, DateRange: dateRange('os') },
      'Schedule OS: dividends, gross, and by the s. 234C periods of their pay dates.',
    ),
    ScheduleFSI: array(
      object(
        {
          ...COUNTRY,
          head: { type: 'string', enum: ['IncOthSrc', 'IncCapGain'] },
          nature_of_income: TEXT,
          treaty_article: TEXT,
          IncFrmOutsideInd: FIGURE,
          TaxPaidOutsideInd: FIGURE,
          TaxPayableinInd: { type: 'null', description: 'Depends on the filer’s slab, which the book does not know.' },
          TaxReliefinInd: FIGURE,
          DTAAReliefUs90or91: TEXT,
        },
        'Income from outside India by head, the tax paid there and the relief available.',
      ),
    ),
    ScheduleTR: array(
      object(
        {
          ...COUNTRY,
          TaxPaidOutsideIndia: FIGURE,
          TaxReliefOutsideIndia: {
            ...FIGURE,
            description:
              'The credit available up to the treaty cap; the filer bounds it by the Indian tax on the income.',
          },
          ReliefClaimedUsSection: TEXT,
        },
        'Tax relief for tax paid outside India, per country.',
      ),
    ),
    Form67: object(
      {
        lines: array(
          object(
            {
              customer_id: TEXT,
              div_txn_no: TEXT,
              symbol: TEXT,
              pay_date: DATE,
              CountryName: TEXT,
              CountryCode: TEXT,
              nature_of_income: TEXT,
              treaty_article: TEXT,
              withholding_rate: RATIO,
              treaty_rate: RATIO,
              income: FIGURE,
              tax_paid: FIGURE,
              credit_available: FIGURE,
              not_creditable: figureWith({ reason: TEXT_OR_NULL }, 'Tax withheld above the treaty rate, and why.'),
            },
            'One dividend’s foreign tax.',
          ),
        ),
        totals: object(
          { income: FIGURE, tax_paid: FIGURE, credit_available: FIGURE, not_creditable: FIGURE },
          'Over every line.',
        ),
      },
      'Form 67: the foreign income and tax, line by line.',
    ),
    ScheduleTCS: object(
      {
        TAN: { ...TEXT_OR_NULL, description: 'The collector’s TAN (INDIA_TCS_COLLECTOR_TAN); null with a warning.' },
        TotalTCS: FIGURE,
        AmtTCSClaimedThisYear: FIGURE,
        lines: array(
          object(
            {
              order_id: TEXT,
              customer_id: TEXT,
              remitted_on: DATE,
              refunded: { type: 'boolean' },
              collected: FIGURE,
              estimated_inr: MONEY,
            },
            'One remittance of the PAN in the FY, refunded since or not.',
          ),
        ),
      },
      'Schedule TCS: the TCS collected on the PAN’s LRS remittances of the FY.',
    ),
    ScheduleAL: object(
      {
        SharesAndSecurities: FIGURE,
        as_of: DATE,
        lots: array(
          object(
            {
              customer_id: TEXT,
              symbol: TEXT,
              lot_txn_id: ref('TxnId'),
              acquired_on: DATE,
              quantity: RATIO,
              cost: FIGURE,
            },
            'A lot open at 31 March.',
          ),
        ),
      },
      'Schedule AL: the cost of the shares held at the FY’s end.',
    ),
    totals: object(
      Object.fromEntries(
        [
          'short_term_gain_inr',
          'long_term_gain_before_2024_07_23_inr',
          'long_term_gain_before_2024_07_23_indexed_inr',
          'long_term_gain_from_2024_07_23_inr',
          'dividends_gross_inr',
          'foreign_tax_paid_inr',
          'foreign_tax_credit_available_inr',
          'tcs_inr',
          'open_lots_cost_inr',
        ].map((k) => [k, MONEY_OR_NULL]),
      ),
      'The pack’s totals: each equals the underlying report’s over the PAN’s customers.',
    ),
    rules: object(
      Object.fromEntries(
        Object.keys(TAX_PACK_RULES).map((k) => [k, object({ rule: TEXT, source: TEXT }, 'A rule and its source.')]),
      ),
      'The rules the figures name, each with its source.',
    ),
    warnings: WARNINGS,
  },
  'Everything the return needs from this book for one PAN and FY, in the ITR utility’s schedule and field names (docs/india-reports.md).',
);

/** The schemas of the India reports on stored data (docs/india-reports.md). */
export const schemas: Record<string, JsonSchema> = {
  LrsPriorUsageInput: object(
    {
      fy: FY,
      amount_usd: { ...ref('Money'), description: 'USD the PAN remitted under LRS in the FY through other banks.' },
      amount_inr: { ...ref('Money'), description: 'The same remittances in INR (for the TCS threshold).' },
      note: {
        type: ['string', 'null'],
        maxLength: 1000,
        description: 'Where the figure comes from, e.g. the bank’s letter.',
      },
    },
    'A PAN’s LRS use elsewhere in one FY, as declared. The last declaration stands.',
    ['note'],
  ),
  LrsPriorUsage: object(
    { pan: PAN, fy: TEXT, ...DECLARED_USAGE },
    'A PAN’s declared LRS use through other banks in one FY: the LRS report and the compliance report count it.',
  ),
  LrsTaxSummary: object(
    {
      fy: TEXT,
      lrs_limit_usd: MONEY,
      tcs_collector_tan: {
        ...TEXT_OR_NULL,
        description:
          'The TCS collector’s TAN for Schedule TCS (INDIA_TCS_COLLECTOR_TAN: remit does not give it); null with a warning when TCS was collected.',
      },
      tcs_rules: array(
        object(
          { from: DATE, rate: RATIO, threshold_inr: MONEY, unconfirmed: { type: 'boolean' } },
          'A row of the dated TCS table in force.',
        ),
      ),
      pans: array(
        object(
          {
            pan: {
              type: ['string', 'null'],
              description: 'Null: remittances without a PAN (grouped per customer, TCS at the no-PAN rate).',
            },
            customer_ids: array(TEXT),
            remittance_count: { ...COUNT, description: 'Remittances listed: paid, refunded since or not.' },
            refunded_count: COUNT,
            remitted_usd: { ...MONEY, description: 'Paid and not refunded: the LRS use.' },
            remitted_inr: { ...MONEY, description: 'Paid and not refunded.' },
            refunded_inr: { ...MONEY, description: 'Paid, then refunded: no LRS use.' },
            refunded_tcs_inr: {
              ...MONEY,
              description:
                'TCS collected on remittances refunded since: still the payer’s credit (in `actual_tcs_inr`).',
            },
            declared_prior_usage: {
              anyOf: [
                object(DECLARED_USAGE, 'What the PAN declared it remitted in the FY through other banks.'),
                { type: 'null' },
              ],
            },
            lrs_used_share: {
              ...RATIO,
              description: '(remitted_usd + the declared prior amount_usd) / the LRS limit.',
            },
            lrs_headroom_usd: MONEY,
            status: {
              type: 'string',
              enum: ['ok', 'warn', 'breach'],
              description: '`warn` from 80 % of the limit, `breach` from 100 %.',
            },
            threshold_crossed_on: {
              ...DATE_OR_NULL,
              description: 'The remittance that first went above the TCS threshold (date order).',
            },
            estimated_tcs_inr: MONEY,
            actual_tcs_inr: MONEY,
            difference_inr: { ...MONEY, description: 'actual − estimated.' },
            remittances: array(
              object(
                {
                  ...REMITTANCE,
                  amount_usd: MONEY_OR_NULL,
                  cumulative_inr: MONEY,
                  threshold_inr: MONEY_OR_NULL,
                  above_threshold_inr: MONEY,
                  tcs_rate: RATIO,
                  estimated_tcs_inr: MONEY,
                  actual_tcs_inr: MONEY_OR_NULL,
                  refunded: {
                    type: 'boolean',
                    description: 'Refunded after it was paid: its TCS stays collected and counted.',
                  },
                },
                'A paid remittance in date order, with its part above the threshold and the TCS the rules give.',
              ),
            ),
          },
          'One PAN’s LRS use and TCS in the FY.',
        ),
      ),
      totals: object(
        {
          pans: COUNT,
          warn: COUNT,
          breach: COUNT,
          remitted_usd: MONEY,
          remitted_inr: MONEY,
          refunded_inr: MONEY,
          declared_prior_usd: MONEY,
          estimated_tcs_inr: MONEY,
          actual_tcs_inr: MONEY,
          difference_inr: MONEY,
        },
        'The FY over every PAN.',
      ),
      warnings: WARNINGS,
    },
    'Per-PAN LRS use against the USD 250,000 limit, and TCS estimated by the dated rules against TCS collected (docs/india-reports.md).',
  ),
  CapitalGainsSummary: pagedReport(
    {
      fy: TEXT,
      basis: { type: 'string', description: 'How cost, consideration and INR are taken.' },
      warnings: WARNINGS,
    },
    object(
      {
        customer_id: TEXT,
        symbols: array(
          object(
            {
              symbol: TEXT,
              disposals: array(
                object(
                  {
                    sell_txn_id: ref('TxnId'),
                    transferred_on: DATE,
                    quantity: RATIO,
                    matches: array(
                      object(
                        {
                          lot_txn_id: ref('TxnId'),
                          acquired_on: DATE,
                          transferred_on: DATE,
                          quantity: RATIO,
                          cost_usd: MONEY,
                          buy_fee_usd: MONEY,
                          cost_of_acquisition_usd: MONEY,
                          proceeds_usd: MONEY,
                          sell_fee_usd: MONEY,
                          consideration_usd: MONEY,
                          gain_usd: MONEY,
                          cost_rate: RATE_USED,
                          sale_rate: RATE_USED,
                          cost_of_acquisition_inr: MONEY_OR_NULL,
                          consideration_inr: MONEY_OR_NULL,
                          gain_inr: MONEY_OR_NULL,
                          months_held: COUNT,
                          instrument_type: {
                            type: ['string', 'null'],
                            enum: ['share', 'fund_unit', null],
                            description:
                              'From the issuers table: a share, or units of an ETF or other fund. Null: unknown (taken as a share, with a warning).',
                          },
                          term: {
                            type: 'string',
                            enum: ['short', 'long'],
                            description:
                              '`long` when held more than 24 calendar months; fund units transferred before 2024-07-23, more than 36.',
                          },
                          section_50aa: {
                            type: ['string', 'null'],
                            enum: ['applied', 'not_applied', null],
                            description:
                              'Set when section 50AA would make this long-term transfer of fund units bought from 2023-04-01 short-term: `applied` (INDIA_SECTION_50AA=applied: the term is short) or `not_applied` (the default). Null when it would change nothing.',
                          },
                          rate_era: ERA,
                          ltcg_rate: {
                            ...RATIO_OR_NULL,
                            description: 'Long-term only; short-term gains are taxed at the slab rate (not computed).',
                          },
                          indexation: { type: 'boolean' },
                          indexed: {
                            anyOf: [
                              object(
                                {
                                  acquisition_fy: TEXT,
                                  acquisition_cii: { type: ['integer', 'null'] },
                                  transfer_fy: TEXT,
                                  transfer_cii: { type: ['integer', 'null'] },
                                  indexed_cost_of_acquisition_inr: MONEY_OR_NULL,
                                  indexed_gain_inr: MONEY_OR_NULL,
                                },
                                'Indexation (s. 48): the INR cost × CII(FY of transfer) / CII(FY of acquisition, 2001-02 at the earliest). A year missing from the index: its CII and the indexed figures null, with a warning.',
                              ),
                              { type: 'null' },
                            ],
                            description:
                              'Long-term transfers before 2024-07-23 only (20 % with indexation); null otherwise.',
                          },
                        },
                        'What the sale took from one lot (stored by recost), its cost and consideration.',
                      ),
                    ),
                  },
                  'A sale in the FY and the lots it consumed.',
                ),
              ),
              short_term_gain_inr: MONEY_OR_NULL,
              long_term_gain_inr: MONEY_OR_NULL,
              long_term_gain_before_2024_07_23_inr: MONEY_OR_NULL,
              long_term_gain_before_2024_07_23_indexed_inr: {
                ...MONEY_OR_NULL,
                description: 'The same gains with the cost indexed (null when a rate or an index year is missing).',
              },
              long_term_gain_from_2024_07_23_inr: MONEY_OR_NULL,
              open_lots: array(
                object(
                  {
                    lot_txn_id: ref('TxnId'),
                    acquired_on: DATE,
                    quantity: RATIO,
                    cost_usd: MONEY,
                    cost_rate: RATE_USED,
                    cost_inr: {
                      ...MONEY_OR_NULL,
                      description:
                        'The cost at the Rule 115 rate of the acquisition month (Schedule AL); null when the rate is missing.',
                    },
                  },
                  'What is left of a lot at the FY’s end (ledger cost, fees excluded).',
                ),
              ),
              flagged_sales: array(
                object(
                  { txn_id: ref('TxnId'), txn_date: DATE, quantity: { type: ['string', 'null'] }, reason: TEXT },
                  'A sale recost flagged (an oversell): never given a cost.',
                ),
              ),
            },
            'One symbol of the customer.',
          ),
        ),
      },
      'One customer, whole: every sale, open lot and flagged sale of theirs.',
    ),
    'FIFO realized short- and long-term gains from the lot matches recost stored, in USD and INR (Rule 115), and open lots (docs/india-reports.md): a page of customers (`items`) in id order, `warnings` of theirs.',
  ),
  DividendSummary: object(
    {
      fy: TEXT,
      basis: TEXT,
      treaty: object(
        { country: TEXT, country_code: TEXT, article: TEXT },
        'Schedule FSI / TR and Form 67: the country, its code in the ITR utility and the India–US treaty article on dividends.',
      ),
      customers: array(
        object(
          {
            customer_id: TEXT,
            gross_usd: MONEY,
            withheld_usd: MONEY,
            net_usd: MONEY,
            effective_rate: RATIO,
            gross_inr: MONEY_OR_NULL,
            withheld_inr: MONEY_OR_NULL,
            net_inr: MONEY_OR_NULL,
            ...CREDIT_TOTALS,
            events: array(
              object(
                {
                  div_txn_no: TEXT,
                  symbol: TEXT,
                  ex_date: DATE,
                  pay_date: DATE,
                  gross_usd: MONEY,
                  withheld_usd: MONEY,
                  net_usd: MONEY,
                  effective_rate: RATIO,
                  rate: RATE_USED,
                  gross_inr: MONEY_OR_NULL,
                  withheld_inr: MONEY_OR_NULL,
                  net_inr: MONEY_OR_NULL,
                  treaty_rate: RATIO,
                  ...CREDIT_TOTALS,
                  not_creditable_reason: {
                    ...TEXT_OR_NULL,
                    description:
                      'Why part of the tax withheld is not creditable (withheld above the treaty rate); null when all of it is.',
                  },
                },
                'A dividend paid in the FY.',
              ),
            ),
          },
          'One customer’s dividends.',
        ),
      ),
      warnings: WARNINGS,
    },
    'US dividends, the US tax withheld (foreign tax paid), the credit available under Rule 128 and the treaty, and net, in USD and INR, per customer (docs/india-reports.md).',
  ),
  ScheduleFaSummary: pagedReport(
    {
      fy: TEXT,
      calendar_year: { type: 'integer' },
      period: object({ from: DATE, to: DATE }, 'The calendar year ending in the FY.'),
      warnings: WARNINGS,
    },
    object(
      {
        customer_id: TEXT,
        a3: array(
          object(
            {
              symbol: TEXT,
              entity_name: TEXT_OR_NULL,
              address: TEXT_OR_NULL,
              zip_code: TEXT_OR_NULL,
              country: TEXT_OR_NULL,
              nature_of_entity: TEXT_OR_NULL,
              date_of_acquiring: DATE,
              initial_value_usd: MONEY,
              initial_value_inr: MONEY_OR_NULL,
              peak_value_date: DATE_OR_NULL,
              peak_value_usd: MONEY_OR_NULL,
              peak_value_inr: MONEY_OR_NULL,
              peak_lower_bound_date: DATE_OR_NULL,
              peak_lower_bound_usd: MONEY_OR_NULL,
              peak_lower_bound_inr: {
                ...MONEY_OR_NULL,
                description:
                  'When a trading day held has no close (`missing_close_days`): the highest value on the days with one, a lower bound of the peak (the peak_value_* fields are then null). Null otherwise.',
              },
              missing_close_days: array(DATE, 'Trading days of the year the holding was held without a close price.'),
              closing_shares: RATIO,
              closing_value_usd: MONEY_OR_NULL,
              closing_value_inr: MONEY_OR_NULL,
              gross_dividends_usd: MONEY,
              gross_dividends_inr: MONEY_OR_NULL,
              gross_sale_proceeds_usd: MONEY,
              gross_sale_proceeds_inr: MONEY_OR_NULL,
            },
            'Table A3: one holding (a symbol) of the customer; the entity behind it from the issuers table (load-issuers), null with a warning when not loaded.',
          ),
        ),
        a2: array(
          object(
            {
              country: TEXT,
              institution_name: TEXT_OR_NULL,
              institution_address: TEXT_OR_NULL,
              institution_zip_code: TEXT_OR_NULL,
              account_number: TEXT_OR_NULL,
              status: { type: 'string', enum: ['Owner'] },
              account_opening_date: DATE,
              peak_balance_date: DATE,
              peak_balance_usd: MONEY,
              peak_balance_inr: MONEY_OR_NULL,
              closing_balance_usd: MONEY,
              closing_balance_inr: MONEY_OR_NULL,
              ...Object.fromEntries(
                Object.keys(A2_NATURES).flatMap((nature) => [
                  [`gross_${nature}_usd`, MONEY],
                  [`gross_${nature}_inr`, MONEY_OR_NULL],
                ]),
              ),
              gross_credited_usd: {
                ...MONEY,
                description: 'The natures summed: dividend, interest, proceeds, other income.',
              },
              gross_credited_inr: MONEY_OR_NULL,
            },
            'Table A2: the customer’s broker cash (USD wallet): the institution (SCHEDULE_FA_BROKER_*), the account (its usbroker account number; its first line in the book as the opening date), peak, closing, the gross amount paid or credited by nature (dividend, interest, proceeds from sale or redemption, other income: the holder’s own transfers in are none of them).',
          ),
        ),
      },
      'One customer’s Schedule FA: tables A3 and A2.',
    ),
    'Foreign assets for the tax return, calendar year ending in the FY, INR at the SBI TT buying rate, paged by customer (docs/india-reports.md).',
  ),
  SettlementAuditSummary: object(
    {
      fy: TEXT,
      remittances: COUNT,
      settled: COUNT,
      unsettled: COUNT,
      lag: object(
        {
          count: COUNT,
          mean_hours: RATIO_OR_NULL,
          median_hours: RATIO_OR_NULL,
          p95_hours: RATIO_OR_NULL,
          max_hours: RATIO_OR_NULL,
        },
        'Hours from payment to settlement: mean, median, 95th percentile (nearest rank), max.',
      ),
      missing_utr: object(
        {
          count: COUNT,
          orders: array(object({ order_id: TEXT, customer_id: TEXT }, 'A paid remittance without a UTR.')),
        },
        'Audit exceptions.',
      ),
      purpose_codes: array(
        object(
          { purpose_code: TEXT, count: COUNT, amount_usd: MONEY },
          'Remittances per purpose code (`uncoded` without one).',
        ),
      ),
      warnings: WARNINGS,
    },
    'Settlement lag, missing UTRs and purpose codes of the FY’s paid remittances.',
  ),
  BrokerFeeSummary: pagedReport(
    {
      configured_bps: RATIO,
      trades: { ...COUNT, description: 'Every trade of the filter (as `total`).' },
      matched: { ...COUNT, description: 'Trades with an itemised fee in the broker’s daily ledger.' },
      matched_share: RATIO,
      flagged: { ...COUNT, description: 'Trades whose itemised fees and posted ones differ beyond one cent.' },
      totals: object(
        {
          notional_usd: MONEY,
          modelled_usd: MONEY,
          configured_usd: MONEY,
          actual_usd: MONEY,
          drift_usd: MONEY,
          configured_drift_usd: MONEY,
          customer_fee_usd: MONEY,
          itemised_fee_usd: MONEY,
          customer_fee_drift_usd: MONEY,
        },
        'Over every trade of the filter, not the page (each drift summed over the trades that have it).',
      ),
      warnings: WARNINGS,
    },
    object(
      {
        txn_id: ref('TxnId'),
        customer_id: TEXT,
        symbol: TEXT,
        side: { type: 'string', enum: ['buy', 'sell'] },
        txn_date: DATE,
        notional_usd: MONEY,
        modelled_usd: {
          ...MONEY_OR_NULL,
          description: 'The broker cost recost posted (5010); null while pending recost.',
        },
        configured_usd: MONEY,
        actual_usd: {
          ...MONEY_OR_NULL,
          description:
            'The broker’s part of the daily ledger’s itemised fee (commission, SEC, TAF, IFSCA); null when none.',
        },
        drift_usd: {
          ...MONEY_OR_NULL,
          description: 'actual − modelled: what the broker kept that the book did not post.',
        },
        configured_drift_usd: {
          ...MONEY_OR_NULL,
          description:
            'actual − configured: how far BROKER_COST_BPS is from what the broker charged (never flagged by itself).',
        },
        customer_fee_usd: {
          ...MONEY_OR_NULL,
          description: 'The customer’s fee the book posted (4010); null while a sale is pending recost.',
        },
        itemised_fee_usd: {
          ...MONEY_OR_NULL,
          description:
            'The customer’s whole fee the daily ledger itemises (the broker’s part and `other_fee`, the platform’s); null when none.',
        },
        customer_fee_drift_usd: { ...MONEY_OR_NULL, description: 'itemised − customer fee.' },
        flagged: {
          type: 'boolean',
          description: '`drift_usd` or `customer_fee_drift_usd` beyond one cent: the book and the broker disagree.',
        },
      },
      'One trade.',
    ),
    'Broker fees per trade: modelled, configured and actual, drift flagged; counts and totals over every trade of the filter, `items` a page of the trades (trade date, then id).',
  ),
  TaxPack: TAX_PACK,
  FxMarginSummary: (() => {
    const totals = {
      remittances: COUNT,
      amount_usd: MONEY,
      realized_usd: MONEY_OR_NULL,
      assumed_usd: MONEY,
      drift_usd: MONEY_OR_NULL,
    };
    return object(
      {
        fy: TEXT,
        configured_bps: RATIO,
        remit_reachable: { type: 'boolean' },
        firm: object(totals, 'Every remittance of the FY; realized null when any is.'),
        customers: array(object({ customer_id: TEXT, ...totals }, 'One customer.')),
        remittances: array(
          object(
            {
              ...REMITTANCE,
              amount_usd: MONEY,
              customer_rate: RATIO,
              mid_rate: { type: ['string', 'null'] },
              margin_bps: RATIO_OR_NULL,
              provider_fees_usd: MONEY_OR_NULL,
              realized: {
                anyOf: [
                  object({ margin_usd: MONEY, margin_bps: MONEY }, 'Net of the provider’s fees.'),
                  { type: 'null' },
                ],
                description:
                  'Null when remit is unreachable, no longer answers the order paid, or no mid rate was read.',
              },
              assumed_usd: { ...MONEY_OR_NULL, description: 'The `fx_spread` accrual posted at the configured bps.' },
              drift_usd: MONEY_OR_NULL,
            },
            'One paid remittance.',
          ),
        ),
        warnings: WARNINGS,
      },
      'Realized against assumed FX-spread margin per remittance, customer and firm.',
    );
  })(),
};

const query = (name: string, description: string, schema: JsonSchema, required = false): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
  ...(required && { required }),
});
const FY_DEFAULT = 'Default: the FY of today’s date in India (IST).';
const fyParam = (required = false) =>
  query('fy', required ? 'The financial year; required.' : `The financial year. ${FY_DEFAULT}`, FY, required);
const customerParam = query(
  'customer',
  'Only this customer (a ledger customer id); all without it.',
  ref('CustomerId'),
);

function report(
  operationId: string,
  summary: string,
  schema: string,
  parameters: Array<Parameter | Reference>,
  description: string,
) {
  return {
    get: {
      operationId,
      summary,
      description: `${description} On the UAE book it answers the same shape, zero-valued.`,
      tags: TAG,
      security: READ,
      parameters,
      responses: {
        '200': { description: 'The report.', content: json(ref(schema)) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  };
}

export const paths: Paths = {
  '/v1/india/lrs/prior-usage/{pan}': {
    put: {
      operationId: 'putIndiaLrsPriorUsage',
      summary: 'Declare a PAN’s LRS use through other banks (admin)',
      description:
        'The LRS limit and the TCS threshold are per PAN per FY across every bank; the book sees only its own remittances. What the PAN remitted elsewhere in the FY counts against the limit (USD) and, before the book’s remittances, against the TCS threshold (INR) in `/v1/india/lrs` and `/v1/india/compliance`. A new declaration for the same PAN and FY replaces the last; `"0.00"` withdraws it in effect. On the UAE book: stored, never counted (its reports are zero-valued).',
      tags: TAG,
      security: ADMIN,
      parameters: [{ name: 'pan', in: 'path', required: true, description: 'The PAN.', schema: PAN }],
      requestBody: { description: 'The declaration.', required: true, content: json(ref('LrsPriorUsageInput')) },
      responses: {
        '201': { description: 'Declared.', content: json(ref('LrsPriorUsage')) },
        '200': { description: 'Replaced the FY’s earlier declaration.', content: json(ref('LrsPriorUsage')) },
        ...errorResponses(...WRITE_ERRORS),
      },
    },
  },
  '/v1/india/lrs': report(
    'getIndiaLrs',
    'LRS use and TCS per PAN',
    'LrsTaxSummary',
    [fyParam()],
    'Paid remittances of the FY per PAN: LRS use and headroom, the TCS threshold crossing in date order, TCS estimated by the dated rules against collected.',
  ),
  '/v1/india/capital-gains': report(
    'getIndiaCapitalGains',
    'Realized capital gains and open lots',
    'CapitalGainsSummary',
    [customerParam, fyParam(), paramRef('Limit'), paramRef('Offset')],
    'Each sale of the FY with the lots recost matched to it (stored, never re-run), cost and consideration in USD and INR (Rule 115), gain, holding and term, the LTCG era; open lots; oversells flagged. Paged by customer (id order), each customer whole.',
  ),
  '/v1/india/dividends': report(
    'getIndiaDividends',
    'Dividends and foreign tax credit',
    'DividendSummary',
    [customerParam, fyParam()],
    'US dividends paid in the FY: gross, withheld, net, effective rate, in USD and INR, with the foreign tax credit.',
  ),
  '/v1/india/schedule-fa': report(
    'getIndiaScheduleFa',
    'Schedule FA (foreign assets)',
    'ScheduleFaSummary',
    [fyParam(true), customerParam, paramRef('Limit'), paramRef('Offset')],
    'Tables A3 and A2 for the calendar year ending in the FY, from stored trades, close prices and rates. Paged by customer (id order), each customer whole.',
  ),
  '/v1/india/settlement-audit': report(
    'getIndiaSettlementAudit',
    'Remittance settlement audit',
    'SettlementAuditSummary',
    [fyParam()],
    'Settlement lag, missing UTRs and purpose codes of the FY’s paid remittances.',
  ),
  '/v1/india/broker-fees': report(
    'getIndiaBrokerFees',
    'Broker fees: modelled, configured and actual',
    'BrokerFeeSummary',
    [
      query('from', 'Earliest trade date, inclusive.', ref('Date')),
      query('to', 'Latest trade date, inclusive.', ref('Date')),
      customerParam,
      paramRef('Limit'),
      paramRef('Offset'),
    ],
    'Every trade (or those of the window and customer): the broker cost recost posted, BROKER_COST_BPS of notional, and the daily ledger’s itemised fee; the customer’s fee posted against the whole fee itemised; flagged when the itemised fees and the posted ones differ by over a cent; the share matched. Counts and totals over every trade of the filter; the trades listed a page at a time (trade date, then id).',
  ),
  '/v1/india/tax-pack': {
    get: {
      operationId: 'getIndiaTaxPack',
      summary: 'The tax pack of one PAN and FY, in the ITR’s schedules',
      description:
        'Everything the return needs from this book for one PAN and FY, in the ITR utility’s schedule and field names: Schedule FA (A2, A3), Schedule CG (short and long term, before and from 2024-07-23, the s. 234C periods), dividends for Schedule OS by period, Schedules FSI and TR and the Form 67 lines, Schedule TCS, and the INR cost of the lots open at 31 March for Schedule AL. Each figure carries its rate, the rate’s date and its rule (`rules`). Built from the same summaries as the capital-gains, dividends, Schedule FA and LRS reports, over the customers under the PAN: its totals equal theirs. `format=csv`: one row per figure. A PAN no customer or remittance of the book names: 404 (on the UAE book, every PAN).',
      tags: TAG,
      security: READ,
      parameters: [
        query('pan', 'The PAN; required.', PAN, true),
        fyParam(true),
        query('format', 'json (default) or csv: one row per figure.', {
          type: 'string',
          enum: ['json', 'csv'],
          default: 'json',
        }),
      ],
      responses: {
        '200': {
          description: 'The pack.',
          content: {
            ...json(ref('TaxPack')),
            'text/csv': {
              schema: {
                type: 'string',
                description:
                  'field,value,inr,usd,rate,rate_date,rule: one row per figure or value, `field` its path in the JSON answer.',
              },
            },
          },
        },
        ...errorResponses(...READ_ERRORS, 'NotFound'),
      },
    },
  },
  '/v1/india/fx-margin': report(
    'getIndiaFxMargin',
    'FX-spread margin, realized against assumed',
    'FxMarginSummary',
    [fyParam()],
    'Paid remittances of the FY: customer rate against mid, realized margin net of provider fees (orders remit confirms paid, one live call), assumed accrual, drift. Remit unreachable: `realized` null, the accrual still shown.',
  ),
};
