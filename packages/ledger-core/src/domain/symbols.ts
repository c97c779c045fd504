/**
 * A security's symbol, wherever one enters (manual entry and its preview, imports, the syncs'
 * records, the reference files): a ticker of 1 to SYMBOL_LENGTH_MAX letters, digits, `.`, `_`,
 * `/` or `-`, starting with a letter or digit. Markup (`<img src=x onerror=...>`), spaces and
 * control characters are refused at the door, so no report, export or console page ever holds a
 * symbol that is not one. The upstreams' tickers (`AAPL`, `BRK.B`, `EMAAR`, `EMIRATESNBD`) are in it.
 */
export const SYMBOL_LENGTH_MAX = 32;
export const SYMBOL_PATTERN_SOURCE = `^[A-Za-z0-9][A-Za-z0-9._/-]{0,${SYMBOL_LENGTH_MAX - 1}}$`;
const SYMBOL_PATTERN = new RegExp(SYMBOL_PATTERN_SOURCE);

export const SYMBOL_RULE = `a ticker of up to ${SYMBOL_LENGTH_MAX} letters, digits, ".", "_", "/" or "-", e.g. "AAPL"`;

export function isSymbol(text: string): boolean {
  return SYMBOL_PATTERN.test(text);
}
