import { ClipboardPasteIcon, PaperclipIcon, TableIcon } from 'lucide-react';
import { nextStepActionOf, type NextStepAction } from '@contract/structured-response';

/**
 * Runs a clicked next step: a request is sent as a message; a step that asks the user to act
 * (attach a file, paste copy, check how a table was read) does it instead (ADR 0056).
 */
export type NextStepHandler = (text: string, action?: NextStepAction) => void;

const ACTION_ICONS: Record<NextStepAction, typeof PaperclipIcon> = {
  attach: PaperclipIcon,
  paste: ClipboardPasteIcon,
  reading: TableIcon,
};

const ACTION_HINTS: Record<NextStepAction, string> = {
  attach: 'opens the file picker',
  paste: 'puts the cursor in the message box',
  reading: 'shows how the tables were read',
};

/** One numbered step: the action's icon and hint when it asks the user to act. */
export function NextStepButton({
  index,
  description,
  action,
  disabled,
  onNextStep,
}: {
  index: number;
  description: string;
  /** The report's own action; steps without one are judged by their wording. */
  action?: NextStepAction;
  disabled?: boolean;
  onNextStep?: NextStepHandler;
}) {
  const kind = action ?? nextStepActionOf(description);
  const Icon = kind ? ACTION_ICONS[kind] : null;
  return (
    <button
      type="button"
      disabled={disabled}
      data-action={kind}
      title={kind ? `${description} (${ACTION_HINTS[kind]})` : undefined}
      className="flex w-full items-start gap-2 rounded-md px-2 py-1.5 text-left text-sm text-primary transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none disabled:pointer-events-none disabled:opacity-70"
      onClick={() => onNextStep?.(description.trim(), kind)}
    >
      <span className="shrink-0 font-medium tabular-nums">{index + 1}.</span>
      {Icon && <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />}
      <span>
        {description}
        {kind && <span className="sr-only"> ({ACTION_HINTS[kind]})</span>}
      </span>
    </button>
  );
}

/** A report's "Next Steps:" list, numbered; nothing when it has none. */
export function NextSteps({
  steps,
  disabled,
  onNextStep,
}: {
  steps: { description: string; action?: NextStepAction }[];
  disabled?: boolean;
  onNextStep?: NextStepHandler;
}) {
  if (steps.length === 0) return null;
  return (
    <div className="border-t pt-3">
      <p className="mb-1.5 text-sm font-medium">Next Steps:</p>
      <ol className="flex list-none flex-col gap-1">
        {steps.map((step, index) => (
          <li key={index}>
            <NextStepButton
              index={index}
              description={step.description}
              action={step.action}
              disabled={disabled}
              onNextStep={onNextStep}
            />
          </li>
        ))}
      </ol>
    </div>
  );
}
