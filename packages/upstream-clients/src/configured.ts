/** A client's options as configuration gives them: the base URL may be unset. */
export type OptionallyConfigured<Options extends { baseUrl: string }> = Omit<Options, 'baseUrl'> & {
  baseUrl?: string | null | undefined;
};

/**
 * `create`, made to answer null when the upstream's base URL is unset or blank: the upstream is
 * not configured, and callers answer as they would for an unreachable one (contract: Books and
 * configuration).
 */
export function ifConfigured<Options extends { baseUrl: string }, Client>(
  create: (options: Options) => Client,
): (options: OptionallyConfigured<Options>) => Client | null {
  return (options) => {
    const { baseUrl } = options;
    if (baseUrl === undefined || baseUrl === null || baseUrl.trim() === '') return null;
    return create({ ...options, baseUrl } as Options);
  };
}
