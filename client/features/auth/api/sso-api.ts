import { useQuery } from '@tanstack/react-query';
import type { SsoLookupAnswer } from '@contract/sso';
import { ssoLookupQueryOptions } from '@/api/auth';
import { useDebounced } from '@/hooks/use-debounced';

/** Enough of an address to ask about (the server checks it properly). */
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Whether the typed address's company signs in through its identity provider: asked once the
 * typing pauses, remembered per address for the page's life (settings change rarely).
 */
export function useSsoLookup(email: string): SsoLookupAnswer | undefined {
  const address = useDebounced(email.trim().toLowerCase(), 300);
  const { data } = useQuery(
    ssoLookupQueryOptions(address, LOOKS_LIKE_EMAIL.test(address) && address.length <= 255),
  );
  // An answer for an address no longer in the field is not shown.
  return data && address === email.trim().toLowerCase() ? data : undefined;
}
