import * as React from 'react';
import { Redirect, Route, Switch, useSearch } from 'wouter';
import { MODULE_KEYS, MODULES } from '@contract/module-list';
import { AppShell } from '@/app/app-shell';
import { useAuth } from '@/hooks/use-auth';
import { useLogout } from '@/features/auth/use-logout';
import { useSignOutWhenSessionEnds } from '@/features/auth/use-session-ended';
import { useDocumentTitle } from '@/lib/page-title';
import { PageBoundary } from '@/components/error-boundaries';

/** A public page's tab title. */
function Titled({ title, children }: { title: string | null; children: React.ReactNode }) {
  useDocumentTitle(title);
  return <>{children}</>;
}

// Every page is its own chunk: a first load carries only the page it opens (ADR 0011: the chat
// route's budget), and the chat page's markdown and chart libraries never weigh on the others.
const LandingPage = React.lazy(() =>
  import('@/features/landing/landing-page').then((m) => ({ default: m.LandingPage })),
);
const AuthPage = React.lazy(() =>
  import('@/features/auth/auth-page').then((m) => ({ default: m.AuthPage })),
);
const VerifyEmailPage = React.lazy(() =>
  import('@/features/auth/verify-email-page').then((m) => ({
    default: m.VerifyEmailPage,
  })),
);
const ForgotPasswordPage = React.lazy(() =>
  import('@/features/auth/forgot-password-page').then((m) => ({
    default: m.ForgotPasswordPage,
  })),
);
const ResetPasswordPage = React.lazy(() =>
  import('@/features/auth/reset-password-page').then((m) => ({
    default: m.ResetPasswordPage,
  })),
);
const DashboardPage = React.lazy(() =>
  import('@/features/dashboard/dashboard-page').then((m) => ({
    default: m.DashboardPage,
  })),
);
const ModulePage = React.lazy(() =>
  import('@/app/routes/module-route').then((m) => ({ default: m.ModuleRoute })),
);
const ChatPage = React.lazy(() =>
  import('@/app/routes/chat-route').then((m) => ({ default: m.ChatRoute })),
);
const ChatsPage = React.lazy(() =>
  import('@/features/chats/chats-page').then((m) => ({ default: m.ChatsPage })),
);
const SettingsPage = React.lazy(() =>
  import('@/features/settings/settings-page').then((m) => ({
    default: m.SettingsPage,
  })),
);

const AdminPage = React.lazy(() =>
  import('@/features/admin/admin-page').then((m) => ({ default: m.AdminPage })),
);

function FullPageLoading({ className = 'min-h-dvh' }: { className?: string }) {
  return (
    <div
      className={`flex flex-1 items-center justify-center ${className}`}
      role="status"
      aria-live="polite"
    >
      <div className="flex flex-col items-center gap-3 text-sm text-muted-foreground">
        <div className="size-8 animate-spin rounded-full border-2 border-primary border-t-transparent" />
        <span>Loading...</span>
      </div>
    </div>
  );
}

/**
 * A signed-in page inside the shell. Anonymous users go to /; while authentication is loading
 * a spinner shows, except where `allowWhileLoading` (the chat page, spec section 2).
 */
function SignedIn({
  children,
  allowWhileLoading = false,
}: {
  children: React.ReactNode;
  allowWhileLoading?: boolean;
}) {
  const { user, isLoading } = useAuth();
  const logout = useLogout();
  if (isLoading && !allowWhileLoading) return <FullPageLoading />;
  if (!user && !isLoading) return <Redirect to="/" replace />;
  return (
    <AppShell user={user} onLogout={logout}>
      <PageBoundary>
        <React.Suspense fallback={<FullPageLoading className="min-h-64" />}>
          {children}
        </React.Suspense>
      </PageBoundary>
    </AppShell>
  );
}

/**
 * "/": landing page for anonymous users and while loading; dashboard when signed in.
 * The verify page lands on /?verified=true (spec section 2); the toast for it lives on the
 * sign-in screen, so an anonymous visitor is sent on to /auth?verified=true, and a signed-in
 * one (already past sign-in) just gets a clean address.
 */
function Home() {
  const { user, isLoading } = useAuth();
  const verified = new URLSearchParams(useSearch()).get('verified') === 'true';
  if (verified && !isLoading) return <Redirect to={user ? '/' : '/auth?verified=true'} replace />;
  if (!user)
    return (
      <Titled title={null}>
        <LandingPage />
      </Titled>
    );
  return (
    <SignedIn>
      <DashboardPage />
    </SignedIn>
  );
}

/** The auth screen sends a signed-in user to / (spec section 2). */
function AuthRoute() {
  const { user } = useAuth();
  if (user) return <Redirect to="/" replace />;
  return (
    <Titled title="Sign in">
      <AuthPage />
    </Titled>
  );
}

/** Unknown paths: anonymous users go to / (spec section 2); signed-in users too. */
function Fallback() {
  return <Redirect to="/" replace />;
}

export function AppRouter() {
  useSignOutWhenSessionEnds();
  return (
    <React.Suspense fallback={<FullPageLoading />}>
      <Switch>
        <Route path="/" component={Home} />
        <Route path="/auth" component={AuthRoute} />
        <Route path="/verify-email">
          <Titled title="Verify email">
            <VerifyEmailPage />
          </Titled>
        </Route>
        <Route path="/forgot-password">
          <Titled title="Forgot password">
            <ForgotPasswordPage />
          </Titled>
        </Route>
        <Route path="/reset-password">
          <Titled title="Reset password">
            <ResetPasswordPage />
          </Titled>
        </Route>
        {MODULE_KEYS.map((key) => (
          <Route key={key} path={MODULES[key].path}>
            <SignedIn>
              <ModulePage module={key} />
            </SignedIn>
          </Route>
        ))}
        <Route path="/chat/:id">
          {(params) => (
            <SignedIn allowWhileLoading>
              <ChatPage id={params.id} />
            </SignedIn>
          )}
        </Route>
        <Route path="/chats">
          <SignedIn>
            <ChatsPage />
          </SignedIn>
        </Route>
        <Route path="/settings">
          <SignedIn>
            <SettingsPage />
          </SignedIn>
        </Route>
        <Route path="/admin">
          <SignedIn>
            <AdminPage />
          </SignedIn>
        </Route>
        <Route component={Fallback} />
      </Switch>
    </React.Suspense>
  );
}
