/** The /auth modes the address can ask for; the code step is reached only by signing in. */
export type AddressableAuthMode = 'register' | 'login';

/** `?mode=register` opens the sign-up form (the landing page links there); anything else, sign-in. */
export function authModeFromSearch(search: string): AddressableAuthMode {
  return new URLSearchParams(search).get('mode') === 'register' ? 'register' : 'login';
}

/** The address an invitation link fills in (`?email=`), bounded as the form bounds it. */
export function invitedEmailFromSearch(search: string): string {
  return (new URLSearchParams(search).get('email') ?? '').trim().slice(0, 255);
}

/** An invitation link's token (`?token=`), or "" when sign-up was not opened by one. */
export function invitationTokenFromSearch(search: string): string {
  return (new URLSearchParams(search).get('token') ?? '').trim().slice(0, 100);
}

/** The query string without one parameter, with its "?" when anything is left, else "". */
export function withoutParam(search: string, name: string): string {
  const params = new URLSearchParams(search);
  params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}
