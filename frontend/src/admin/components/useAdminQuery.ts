import { useQuery, type QueryKey } from '@tanstack/react-query';

/**
 * A read through react-admin's query client (the one <Admin> provides), so any mutation can
 * refresh it with queryClient.invalidateQueries({ queryKey: [key[0]] }).
 */
export function useAdminQuery<T>(key: QueryKey, fn: () => Promise<T>, options: { enabled?: boolean; refetchInterval?: number } = {}) {
  return useQuery({ queryKey: key, queryFn: fn, retry: false, refetchOnWindowFocus: false, ...options });
}
