import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorDialog, errorDialogText } from './error-dialog';

describe('error dialog', () => {
  afterEach(() => cleanup());

  it('words the message as the spec does, with the default when there is none', () => {
    expect(errorDialogText('The agent timed out')).toBe(
      'The agent timed out. Please try again. If the error persists, please contact an admin.',
    );
    expect(errorDialogText('Already punctuated.')).toBe(
      'Already punctuated. Please try again. If the error persists, please contact an admin.',
    );
    expect(errorDialogText(null)).toBe(
      'There has been an error completing this request. Please try again. If the error persists, please contact an admin.',
    );
  });

  it('is titled Error, retries on Retry and ignores outside clicks', async () => {
    const onRetry = vi.fn();
    const onOpenChange = vi.fn();
    render(<ErrorDialog open message="Boom" onRetry={onRetry} onOpenChange={onOpenChange} />);
    const dialog = screen.getByRole('alertdialog');
    expect(screen.getByRole('heading', { name: 'Error' })).toBeTruthy();
    expect(dialog.textContent).toContain('Boom. Please try again.');
    // The page behind is inert (pointer-events: none); a press there must not close the dialog.
    fireEvent.pointerDown(document.body);
    fireEvent.mouseDown(document.body);
    expect(onOpenChange).not.toHaveBeenCalled();
    // Blocking: Escape does not close it either.
    await userEvent.keyboard('{Escape}');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
