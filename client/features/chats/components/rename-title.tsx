import * as React from 'react';
import { TITLE_MAX } from '@contract/constants';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/**
 * A title being renamed in place: Enter (or leaving the box) saves, Escape cancels. An empty or
 * unchanged title saves nothing.
 */
export function RenameTitleInput({
  title,
  onSave,
  onDone,
  className,
  label = 'Chat title',
}: {
  title: string;
  onSave: (title: string) => Promise<boolean>;
  onDone: () => void;
  className?: string;
  label?: string;
}) {
  const [value, setValue] = React.useState(title);
  const [saving, setSaving] = React.useState(false);
  const finished = React.useRef(false);
  const ref = React.useRef<HTMLInputElement>(null);
  React.useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);

  const commit = async () => {
    if (finished.current) return;
    const next = value.trim();
    if (!next || next === title) {
      finished.current = true;
      onDone();
      return;
    }
    finished.current = true;
    setSaving(true);
    const ok = await onSave(next);
    setSaving(false);
    if (!ok) {
      finished.current = false;
      ref.current?.focus();
      return;
    }
    onDone();
  };

  return (
    <Input
      ref={ref}
      aria-label={label}
      value={value}
      maxLength={TITLE_MAX}
      disabled={saving}
      className={cn('h-8', className)}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          void commit();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          finished.current = true;
          onDone();
        }
      }}
    />
  );
}
