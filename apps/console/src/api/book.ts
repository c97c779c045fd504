import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client.js';

/** The api's index (`GET /`): which book this console is on, and the other book's console. */
export function useIndex() {
  return useQuery({ queryKey: ['index'], queryFn: () => unwrap(api.GET('/')), staleTime: Infinity });
}
