import { Link } from 'wouter';
import {
  ArrowRightIcon,
  BarChart3Icon,
  FileTextIcon,
  LayoutTemplateIcon,
  LockKeyholeIcon,
  MessagesSquareIcon,
} from 'lucide-react';
import { MODULE_KEYS, MODULES } from '@contract/module-list';
import { AtriumLogo } from '@/components/atrium-logo';
import { MODULE_COPY } from '@/components/module-copy';
import { MODULE_ICONS } from '@/components/module-icon';
import { Button } from '@/components/ui/button';
import { ThemeToggle } from '@/components/theme/theme-toggle';

const STEPS = [
  {
    icon: LayoutTemplateIcon,
    title: 'Pick a starter',
    text: 'Open a module and begin from a ready-made template, or start a blank thread.',
  },
  {
    icon: MessagesSquareIcon,
    title: 'Chat with the agent',
    text: 'Attach spreadsheets and documents; watch the agent think and answer as it streams.',
  },
  {
    icon: BarChart3Icon,
    title: 'Get a structured report',
    text: 'Findings, charts and files you can view, download and save, with suggested next steps.',
  },
];

export function LandingPage() {
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <header className="sticky top-0 z-30 border-b bg-background/80 backdrop-blur supports-[backdrop-filter]:bg-background/60">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-2 px-4 sm:px-6">
          <Link
            href="/"
            className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <AtriumLogo />
          </Link>
          <div className="flex-1" />
          <ThemeToggle />
          <Button asChild variant="ghost" className="hidden sm:inline-flex">
            <Link href="/auth">Sign in</Link>
          </Button>
          <Button asChild size="sm" className="sm:h-9 sm:px-4">
            <Link href="/auth?mode=register">Create account</Link>
          </Button>
        </div>
      </header>

      <main className="flex-1">
        <section className="relative overflow-hidden">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-x-0 -top-40 -z-0 mx-auto h-[28rem] max-w-4xl rounded-full bg-gradient-to-br from-indigo-500/25 via-violet-500/15 to-fuchsia-500/10 blur-3xl"
          />
          <div className="relative mx-auto flex w-full max-w-6xl flex-col items-center px-4 pt-16 pb-14 text-center sm:px-6 sm:pt-24 sm:pb-20">
            <span className="mb-6 inline-flex items-center gap-2 rounded-full border bg-card/70 px-3 py-1 text-xs font-medium text-muted-foreground shadow-xs">
              <LockKeyholeIcon className="size-3.5 text-primary" aria-hidden="true" />
              For staff of approved companies
            </span>
            <h1 className="max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl md:text-6xl">
              Your AI agent workspace for{' '}
              <span className="bg-gradient-to-r from-indigo-500 to-violet-500 bg-clip-text text-transparent">
                brand, governance and talent
              </span>
            </h1>
            <p className="mt-5 max-w-2xl text-base text-pretty text-muted-foreground sm:text-lg">
              Atrium brings global talent intelligence, governance and brand management agents
              together in one place. Start a thread, attach your files and get structured reports
              with charts, documents and next steps.
            </p>
            <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
              <Button asChild size="lg" className="w-full sm:w-auto">
                <Link href="/auth?mode=register">
                  Create account
                  <ArrowRightIcon aria-hidden="true" />
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline" className="w-full sm:w-auto">
                <Link href="/auth">Sign in</Link>
              </Button>
            </div>
          </div>
        </section>

        <section
          aria-labelledby="modules-heading"
          className="mx-auto w-full max-w-6xl px-4 pb-16 sm:px-6 sm:pb-24"
        >
          <div className="mb-8 text-center sm:mb-10">
            <h2 id="modules-heading" className="text-2xl font-semibold tracking-tight sm:text-3xl">
              Three modules, one workspace
            </h2>
            <p className="mt-2 text-muted-foreground">
              Each module has its own agent, starters and history.
            </p>
          </div>
          <ul className="grid gap-4 sm:gap-6 md:grid-cols-3">
            {MODULE_KEYS.map((key) => {
              const Icon = MODULE_ICONS[key];
              const copy = MODULE_COPY[key];
              return (
                <li
                  key={key}
                  className="group relative flex flex-col rounded-xl border bg-card p-6 text-card-foreground shadow-sm transition-shadow hover:shadow-md"
                >
                  <div
                    className={`mb-5 flex size-12 items-center justify-center rounded-lg bg-gradient-to-br ${copy.accent}`}
                  >
                    <Icon className="size-6" aria-hidden="true" />
                  </div>
                  <h3 className="text-lg font-semibold">{MODULES[key].name}</h3>
                  <p className="mt-0.5 text-sm font-medium text-primary">{copy.tagline}</p>
                  <p className="mt-3 text-sm leading-relaxed text-muted-foreground">
                    {copy.description}
                  </p>
                </li>
              );
            })}
          </ul>
        </section>

        <section aria-labelledby="how-heading" className="border-y bg-muted/40">
          <div className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
            <h2
              id="how-heading"
              className="mb-10 text-center text-2xl font-semibold tracking-tight sm:text-3xl"
            >
              How it works
            </h2>
            <ol className="grid gap-8 md:grid-cols-3">
              {STEPS.map((step, index) => (
                <li key={step.title} className="flex gap-4">
                  <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                    {index + 1}
                  </div>
                  <div>
                    <h3 className="flex items-center gap-2 font-semibold">
                      <step.icon className="size-4 text-muted-foreground" aria-hidden="true" />
                      {step.title}
                    </h3>
                    <p className="mt-1 text-sm text-muted-foreground">{step.text}</p>
                  </div>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
          <div className="flex flex-col items-center gap-6 rounded-2xl bg-gradient-to-br from-indigo-600 to-violet-600 px-6 py-10 text-center text-white shadow-lg sm:flex-row sm:justify-between sm:px-10 sm:text-left">
            <div>
              <h2 className="flex items-center justify-center gap-2 text-xl font-semibold sm:justify-start sm:text-2xl">
                <FileTextIcon className="size-5" aria-hidden="true" />
                Ready to get started?
              </h2>
              <p className="mt-1 text-sm text-white/80">
                Sign up with your work e-mail address to open your workspace.
              </p>
            </div>
            <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
              <Button asChild size="lg" variant="secondary" className="w-full sm:w-auto">
                <Link href="/auth?mode=register">Create account</Link>
              </Button>
              <Button
                asChild
                size="lg"
                variant="ghost"
                className="w-full text-white hover:bg-white/10 hover:text-white sm:w-auto"
              >
                <Link href="/auth">Sign in</Link>
              </Button>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t">
        <div className="mx-auto flex w-full max-w-6xl flex-col items-center justify-between gap-2 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:px-6">
          <AtriumLogo className="text-foreground" />
          <p>AI agents for brand, governance and talent work.</p>
        </div>
      </footer>
    </div>
  );
}
