import * as React from 'react';

type TriggerProps = React.ComponentProps<'button'>;

/**
 * A dropdown menu whose code (Radix menu, its focus and collection helpers; several KiB gzipped)
 * loads when it is first opened, not with the page (ADR 0011). Until then `trigger` is drawn
 * alone; a primary press, Enter, Space or ArrowDown on it (what opens a Radix menu) mounts
 * `children`, the lazy menu, which opens itself (defaultOpen) and draws the same trigger.
 */
export function MenuOnDemand({
  trigger,
  children,
}: {
  trigger: React.ReactElement<TriggerProps>;
  children: React.ReactNode;
}) {
  const [wanted, setWanted] = React.useState(false);
  if (wanted) return <React.Suspense fallback={trigger}>{children}</React.Suspense>;
  return React.cloneElement(trigger, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerDown: (e: React.PointerEvent<HTMLButtonElement>) => {
      if (e.button !== 0 || e.ctrlKey) return;
      e.preventDefault();
      setWanted(true);
    },
    onKeyDown: (e: React.KeyboardEvent<HTMLButtonElement>) => {
      if (e.key !== 'Enter' && e.key !== ' ' && e.key !== 'ArrowDown') return;
      e.preventDefault();
      setWanted(true);
    },
  });
}
