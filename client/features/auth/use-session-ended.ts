import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { onUnauthorized } from '@/api/http';
import { AUTH_USER_QUERY_KEY } from '@/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import { clearSignedInData } from '@/features/auth/api/logout-api';

/** What a tab whose session ended says on the sign-in page. */
export const SESSION_ENDED_TEXT = 'Your session has ended. Please sign in again.';

/**
 * App-wide (ADR 0013): when an /api call answers 401 while the tab is signed in, the session
 * ended elsewhere (logout in another tab, member disabled, deprovisioned by the directory). The
 * tab forgets everything of that user and goes to the sign-in page at once. A 401 while signed
 * out (a wrong password, an expired code step) is the form's own answer and changes nothing.
 */
export function useSignOutWhenSessionEnds(): void {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  React.useEffect(
    () =>
      onUnauthorized(() => {
        if (!queryClient.getQueryData(AUTH_USER_QUERY_KEY)) return;
        // The user becomes null before the move, so no guard sees a signed-in user on /auth.
        clearSignedInData(queryClient);
        navigate('/auth', { replace: true });
        toast({ title: 'Signed out', description: SESSION_ENDED_TEXT });
      }),
    [queryClient, navigate],
  );
}
