import * as React from 'react';
import { OTPInput, REGEXP_ONLY_DIGITS } from 'input-otp';
import { OTP_LENGTH } from '@contract/constants';
import { cn } from '@/lib/utils';

export interface OtpInputProps {
  value: string;
  onChange: (value: string) => void;
  /** Called once the sixth digit is in (spec: "completes when full"). */
  onComplete: (code: string) => void;
  disabled?: boolean;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/**
 * Six boxes over one real input (input-otp): typing, pasting, one-time-code autofill and
 * screen readers all see a single text field; the boxes are only its picture.
 */
export const OtpInput = React.forwardRef<HTMLInputElement, OtpInputProps>(function OtpInput(
  { value, onChange, onComplete, disabled, ...aria },
  ref,
) {
  return (
    <OTPInput
      ref={ref}
      {...aria}
      value={value}
      onChange={onChange}
      onComplete={onComplete}
      maxLength={OTP_LENGTH}
      pattern={REGEXP_ONLY_DIGITS}
      inputMode="numeric"
      autoComplete="one-time-code"
      autoFocus
      disabled={disabled}
      containerClassName="flex items-center justify-center gap-2 has-disabled:opacity-50"
      render={({ slots }) => (
        <>
          {slots.map((slot, index) => (
            <div
              key={index}
              className={cn(
                'relative flex size-11 items-center justify-center rounded-md border border-input bg-background text-lg font-semibold shadow-xs transition-all sm:size-12 dark:bg-input/30',
                slot.isActive && 'z-10 border-ring ring-[3px] ring-ring/50',
                aria['aria-invalid'] && 'border-destructive',
              )}
            >
              {slot.char}
              {slot.hasFakeCaret && (
                <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
                  <div className="h-5 w-px animate-pulse bg-foreground" />
                </div>
              )}
            </div>
          ))}
        </>
      )}
    />
  );
});
