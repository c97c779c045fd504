/** A decimal string with thousands separators, as the API gave it (never through a float). */
export function money(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const [whole = '', fraction] = value.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${digits}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** Whether a decimal string is zero (`0`, `0.00`, `-0.0`): read as text, never as a float. */
export const isZero = (value: string) => /^-?0*(\.0*)?$/.test(value);
