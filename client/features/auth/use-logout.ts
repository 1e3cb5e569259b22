import * as React from 'react';
import { useLocation } from 'wouter';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { useLogoutMutation } from '@/features/auth/api/logout-api';

/** The shell's Logout entry: the call, its toasts (spec section 7/8) and the way back to /. */
export function useLogout(): () => void {
  const [, navigate] = useLocation();
  const { mutate, isPending } = useLogoutMutation({
    onSuccess: (answer) => {
      toast({ title: 'Logged out', description: 'You have been successfully logged out' });
      // Signed in through the company's identity provider: sign out there too (it comes back to /).
      if (answer.logoutUrl) window.location.assign(answer.logoutUrl);
      else navigate('/', { replace: true });
    },
  });
  return React.useCallback(() => {
    if (isPending) return;
    mutate(undefined, {
      onError: (err) => {
        toast({
          variant: 'destructive',
          title: 'Logout failed',
          description: serverMessage(err, 'An error occurred during logout'),
        });
      },
    });
  }, [mutate, isPending]);
}
