import type { SsoLookupAnswer } from '@contract/sso';
import { ssoButtonText } from '@contract/sso';
import { Button } from '@/components/ui/button';

/**
 * "Continue with <company> SSO": a full page navigation to the server, which sends the browser
 * on to the company's identity provider and back (ADR 0034).
 */
export function SsoButton({ sso, divided }: { sso: SsoLookupAnswer; divided: boolean }) {
  if (!sso.sso || !sso.company || !sso.startUrl) return null;
  return (
    <div className="grid gap-4">
      {divided && (
        <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
          <span className="h-px flex-1 bg-border" />
          or
          <span className="h-px flex-1 bg-border" />
        </div>
      )}
      <Button asChild variant={divided ? 'outline' : 'default'} size="lg" className="w-full">
        <a href={sso.startUrl}>{ssoButtonText(sso.company)}</a>
      </Button>
      {sso.enforced && (
        <p className="text-center text-sm text-muted-foreground">
          {sso.company} signs in with its own identity provider.
        </p>
      )}
    </div>
  );
}
