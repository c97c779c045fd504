import { useEffect, useState } from 'react';

/** Routes live after `#` (`#/customers/UAE-000001?from=...`): the api serves one page. */
export interface Route {
  /** The page's path segment (`customers`). */
  page: string;
  /** What follows it (`UAE-000001`), or ''. */
  param: string;
  query: URLSearchParams;
}

function parse(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  const [page = '', ...rest] = path.split('/');
  return { page, param: rest.map(decodeURIComponent).join('/'), query: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(window.location.hash));
  useEffect(() => {
    const changed = () => setRoute(parse(window.location.hash));
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

/** `href` of a page, with its param and query (empty values left out). */
export function href(page: string, param = '', query: Record<string, string | number | undefined> = {}): string {
  const search = new URLSearchParams(
    Object.entries(query)
      .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  const tail = search.size > 0 ? `?${search}` : '';
  return `#/${page}${param === '' ? '' : `/${encodeURIComponent(param)}`}${tail}`;
}

export function navigate(to: string): void {
  window.location.hash = to;
}
