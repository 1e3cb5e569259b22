import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatMenu } from './chat-menu';

// The menu's code loads on its first opening (ADR 0011); the first press must still open it.
describe('ChatMenu', () => {
  afterEach(() => cleanup());

  const setup = () => {
    const onRename = vi.fn();
    render(
      <ChatMenu chat={{ id: 'c1', title: 'Q3 plan' }} onRename={onRename} onDelete={vi.fn()} />,
    );
    return { onRename, button: screen.getByRole('button', { name: 'Actions for Q3 plan' }) };
  };

  it('opens on the first click, before its menu has loaded, and acts on a choice', async () => {
    const user = userEvent.setup();
    const { onRename, button } = setup();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    await user.click(button);
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    expect(onRename).toHaveBeenCalledTimes(1);
    // Closed again, the same button opens it again.
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Actions for Q3 plan' }));
    expect(await screen.findByRole('menuitem', { name: 'Export as JSON' })).toBeTruthy();
  });

  it('opens from the keyboard with Enter', async () => {
    const user = userEvent.setup();
    const { button } = setup();
    button.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Delete' })).toBeTruthy();
  });
});
