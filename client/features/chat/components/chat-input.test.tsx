import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { ChatInput } from './chat-input';

function setup(props: Partial<React.ComponentProps<typeof ChatInput>> = {}) {
  const onSend = vi.fn(async () => true);
  render(
    <>
      <ChatInput onSend={onSend} sending={false} {...props} />
      <Toaster />
    </>,
  );
  const box = screen.getByPlaceholderText('Type your message...') as HTMLTextAreaElement;
  const send = screen.getByRole('button', { name: 'Send message' }) as HTMLButtonElement;
  const fileInput = screen.getByTestId('file-input') as HTMLInputElement;
  return { onSend, box, send, fileInput };
}

function fileOf(name: string, size: number): File {
  const f = new File(['x'], name, { type: 'text/csv' });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('ChatInput', () => {
  afterEach(() => cleanup());

  it('has 3 rows and disables Send with no text and no files', () => {
    const { box, send } = setup();
    expect(box.rows).toBe(3);
    expect(send.disabled).toBe(true);
  });

  it('sends with Enter and clears the box', async () => {
    const { box, onSend } = setup();
    await userEvent.type(box, 'Hello{Enter}');
    expect(onSend).toHaveBeenCalledWith('Hello', []);
    expect(box.value).toBe('');
  });

  it('adds a new line with Shift+Enter instead of sending', async () => {
    const { box, onSend } = setup();
    await userEvent.type(box, 'one{Shift>}{Enter}{/Shift}two');
    expect(box.value).toBe('one\ntwo');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('does not send blank text', async () => {
    const { box, onSend } = setup();
    await userEvent.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('lists attached files, removes one, and sends the rest with the text', async () => {
    const { box, fileInput, onSend, send } = setup();
    await userEvent.upload(fileInput, [fileOf('a.csv', 2048), fileOf('b.pdf', 10)]);
    expect(await screen.findByText('Attached files:')).toBeTruthy();
    expect(screen.getByText('2.0 KB')).toBeTruthy();
    expect(send.disabled).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Remove b.pdf' }));
    expect(screen.queryByText('b.pdf')).toBeNull();
    await userEvent.type(box, 'Analyse this{Enter}');
    expect(onSend).toHaveBeenCalledTimes(1);
    const firstCall = onSend.mock.calls[0] as unknown as [
      string,
      { name: string; dataUrl: string }[],
    ];
    expect(firstCall[0]).toBe('Analyse this');
    expect(firstCall[1].map((f) => f.name)).toEqual(['a.csv']);
    expect(firstCall[1][0]!.dataUrl.startsWith('data:')).toBe(true);
  });

  it('requires a message with files', async () => {
    const { fileInput, onSend, send } = setup();
    await userEvent.upload(fileInput, fileOf('a.csv', 10));
    await screen.findByText('Attached files:');
    await userEvent.click(send);
    expect(await screen.findByText('Message required')).toBeTruthy();
    expect(screen.getByText('Please add a message to accompany your file upload.')).toBeTruthy();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('refuses files over 10 MB', async () => {
    const { fileInput } = setup();
    fireEvent.change(fileInput, { target: { files: [fileOf('huge.csv', 10 * 1024 * 1024 + 1)] } });
    expect(await screen.findByText('File too large')).toBeTruthy();
    expect(screen.getByText('Please select files smaller than 10MB.')).toBeTruthy();
    expect(screen.queryByText('Attached files:')).toBeNull();
  });

  it('sends nothing while another send is in progress', async () => {
    const { box, onSend, send } = setup({ sending: true });
    await userEvent.type(box, 'Hello{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(send.disabled).toBe(true);
  });

  it('starts with the prefill text', () => {
    const { box } = setup({ initialText: 'Help me with: payroll' });
    expect(box.value).toBe('Help me with: payroll');
  });
});
