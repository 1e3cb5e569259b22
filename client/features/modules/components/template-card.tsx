import { Loader2Icon, SparklesIcon } from 'lucide-react';
import type { StarterDto } from '@contract/starters';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';

export interface TemplateCardProps {
  template: StarterDto;
  onUse: (template: StarterDto) => void;
  /** Another chat is being created: no second one may start. */
  disabled: boolean;
  /** This card's chat is being created. */
  pending: boolean;
}

/** A starter template: task-type badge, name, description and "Use This Template". */
export function TemplateCard({ template, onUse, disabled, pending }: TemplateCardProps) {
  const titleId = `template-${template.id}`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex flex-col rounded-xl border bg-card p-5 text-card-foreground shadow-xs transition-shadow hover:shadow-md"
    >
      <div className="mb-3 flex flex-wrap gap-2">
        <Badge variant="secondary">{template.taskType}</Badge>
        {template.companyOwn && <Badge variant="outline">Your company</Badge>}
      </div>
      <h3 id={titleId} className="font-semibold leading-snug">
        {template.name}
      </h3>
      <p className="mt-2 flex-1 text-sm leading-relaxed text-muted-foreground">
        {template.description}
      </p>
      <Button
        variant="outline"
        className="mt-4 w-full"
        aria-describedby={titleId}
        disabled={disabled}
        onClick={() => onUse(template)}
      >
        {pending ? (
          <Loader2Icon className="animate-spin" aria-hidden="true" />
        ) : (
          <SparklesIcon aria-hidden="true" />
        )}
        Use This Template
      </Button>
    </article>
  );
}

export function TemplateCardSkeleton() {
  return (
    <div
      data-testid="template-skeleton"
      aria-hidden="true"
      className="flex flex-col gap-3 rounded-xl border bg-card p-5"
    >
      <Skeleton className="h-5 w-24" />
      <Skeleton className="h-5 w-2/3" />
      <div className="flex flex-col gap-2">
        <Skeleton className="h-3.5 w-full" />
        <Skeleton className="h-3.5 w-full" />
        <Skeleton className="h-3.5 w-4/5" />
      </div>
      <Skeleton className="mt-2 h-9 w-full" />
    </div>
  );
}
