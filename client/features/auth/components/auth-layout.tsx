import type * as React from 'react';
import { Link } from 'wouter';
import { AtriumLogo } from '@/components/atrium-logo';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ThemeToggle } from '@/components/theme/theme-toggle';

/**
 * The frame of every public account page: logo and theme toggle on top, one centred card.
 * The card title is the page's h1.
 */
export function AuthLayout({
  title,
  description,
  icon,
  children,
  footer,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** A status picture above the title (verify page, success panels). */
  icon?: React.ReactNode;
  children?: React.ReactNode;
  footer?: React.ReactNode;
}) {
  return (
    <div className="relative flex min-h-dvh flex-col overflow-hidden bg-background">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-48 mx-auto h-96 max-w-3xl rounded-full bg-gradient-to-br from-indigo-500/20 via-violet-500/10 to-fuchsia-500/5 blur-3xl"
      />
      <header className="relative mx-auto flex h-16 w-full max-w-6xl items-center px-4 sm:px-6">
        <Link
          href="/"
          className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-label="Atrium home"
        >
          <AtriumLogo />
        </Link>
        <div className="flex-1" />
        <ThemeToggle />
      </header>
      <main className="relative flex flex-1 items-start justify-center px-4 pt-4 pb-12 sm:items-center sm:pt-0">
        <Card className="w-full max-w-md gap-5 shadow-lg">
          <CardHeader className="text-center">
            {icon && <div className="mb-2 flex justify-center">{icon}</div>}
            <CardTitle>
              <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            </CardTitle>
            {description && (
              <CardDescription className="text-pretty">{description}</CardDescription>
            )}
          </CardHeader>
          {children && <CardContent>{children}</CardContent>}
          {footer && <div className="px-6 text-center text-sm text-muted-foreground">{footer}</div>}
        </Card>
      </main>
    </div>
  );
}
