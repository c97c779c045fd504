/** A field whose name says it holds a credential: never logged, never stored beside a record. */
export const SECRET_KEY = /token|secret|password|authorization|api[-_]?key|signature/i;

/** A record's fields without its credentials, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEY.test(key))
      .map(([key, v]) => [key, withoutSecrets(v)]),
  );
}
