/**
 * Money in the sandbox is bigint minor units (fils, cents: two decimals), so every total is
 * exact; it leaves as decimal strings. Never a JS number.
 */

/** `123456n` → `"1234.56"`, `-5n` → `"-0.05"`. */
export function formatMinor(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  const whole = abs / 100n;
  const cents = (abs % 100n).toString().padStart(2, '0');
  return `${sign}${whole}.${cents}`;
}

/** `"1234.56"` → `123456n`; at most two decimals. */
export function parseMinor(decimal: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(decimal);
  if (match === null) throw new Error(`not an amount with at most two decimals: ${decimal}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const minor = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign === '-' ? -minor : minor;
}

/** `value × bps / 10 000`, rounded half up (value ≥ 0). */
export function basisPoints(value: bigint, bps: bigint): bigint {
  return (value * bps + 5_000n) / 10_000n;
}

/** `numerator / denominator` to `places` decimals, rounded half up (both ≥ 0, denominator > 0). */
export function divideToDecimal(numerator: bigint, denominator: bigint, places: number): string {
  const scale = 10n ** BigInt(places);
  const scaled = (numerator * scale * 2n + denominator) / (denominator * 2n);
  const whole = scaled / scale;
  if (places === 0) return whole.toString();
  return `${whole}.${(scaled % scale).toString().padStart(places, '0')}`;
}
