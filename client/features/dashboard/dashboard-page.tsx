import { Link } from 'wouter';
import { ArrowRightIcon } from 'lucide-react';
import { MODULE_KEYS, MODULES } from '@contract/module-list';
import { MODULE_COPY } from '@/components/module-copy';
import { MODULE_ICONS } from '@/components/module-icon';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/hooks/use-auth';

/** "/" when signed in: the welcome text and one card per module (spec section 2, Dashboard). */
export function DashboardPage() {
  const { user } = useAuth();
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-8 p-4 sm:p-6 lg:py-10">
      <section aria-labelledby="welcome-heading" className="max-w-3xl">
        <h2 id="welcome-heading" className="text-2xl font-semibold tracking-tight sm:text-3xl">
          {user ? `Welcome, ${user.firstName}` : 'Welcome'}
        </h2>
        <p className="mt-2 text-pretty text-muted-foreground">
          Atrium&apos;s three modules combine global talent intelligence, governance and brand
          management agents in one workspace.
        </p>
      </section>

      <ul aria-label="Modules" className="grid gap-4 sm:gap-6 md:grid-cols-3">
        {MODULE_KEYS.map((key) => {
          const module = MODULES[key];
          const copy = MODULE_COPY[key];
          const Icon = MODULE_ICONS[key];
          return (
            <li
              key={key}
              aria-labelledby={`module-${key}`}
              className="flex flex-col rounded-xl border bg-card p-5 text-card-foreground shadow-sm transition-shadow hover:shadow-md sm:p-6"
            >
              <div
                className={`mb-4 flex size-11 items-center justify-center rounded-lg bg-gradient-to-br ${copy.accent}`}
              >
                <Icon className="size-6" aria-hidden="true" />
              </div>
              <h3 id={`module-${key}`} className="text-lg font-semibold">
                {module.name}
              </h3>
              <p className="mt-0.5 text-sm font-medium text-primary">{copy.tagline}</p>
              <p className="mt-3 flex-1 text-sm leading-relaxed text-muted-foreground">
                {copy.description}
              </p>
              <Button asChild className="mt-5 w-full">
                <Link href={module.path}>
                  Enter {module.name}
                  <ArrowRightIcon aria-hidden="true" />
                </Link>
              </Button>
            </li>
          );
        })}
      </ul>

      <p className="text-center text-sm text-muted-foreground">
        Choose a module above to explore starter templates and begin your AI-powered workspace.
      </p>
    </div>
  );
}
