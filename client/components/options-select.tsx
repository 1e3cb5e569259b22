import * as React from 'react';
import { MODULE_KEYS, MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

// A select over a fixed list of options: the trigger, the value and one item per option, the block
// every filter and settings select repeated. Choosing reports the option's own value, so callers
// keep their union types without casting the string Radix hands back.

export interface Option<T extends string> {
  value: T;
  label: React.ReactNode;
}

/** The three modules as options, in the sidebar's order. */
export const MODULE_OPTIONS: Option<ModuleKey>[] = MODULE_KEYS.map((k) => ({
  value: k,
  label: MODULES[k].name,
}));

export function OptionsSelect<T extends string>({
  options,
  value,
  onChange,
  disabled,
  placeholder,
  trigger,
  wrapTrigger = (t) => t,
}: {
  options: readonly Option<T>[];
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
  /** Shown while the value is '' (or names no option). */
  placeholder?: string;
  /** The trigger's props: its name (aria-label, aria-labelledby, or an id a label points at), width. */
  trigger: Omit<React.ComponentProps<typeof SelectTrigger>, 'children'>;
  /** Wraps the trigger, e.g. in a form control that wires its id and error. */
  wrapTrigger?: (trigger: React.ReactElement) => React.ReactNode;
}) {
  return (
    <Select
      value={value}
      disabled={disabled}
      onValueChange={(v) => {
        const chosen = options.find((o) => o.value === v);
        if (chosen) onChange(chosen.value);
      }}
    >
      {wrapTrigger(
        <SelectTrigger {...trigger}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>,
      )}
      <SelectContent>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
