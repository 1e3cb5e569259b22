import { StructuredResponse } from '@contract/structured-response';
import type { StreamEventType } from '@contract/ws-events';
import type { MessagePart } from '@contract/chats';
import { MODEL_TRUNCATED_MESSAGE } from '@contract/models';
import type { ChatMessage, MessageAttachment } from '../../db/schema';
import { recordTurnEvent, type TurnEvent } from '../../realtime/turn-feed';
import type { Bus } from '../../realtime/bus';
import type { Clock } from '../../lib/clock';
import { storable } from '../../lib/storable-text';
import type { AgentEvent, HistoryMessage } from '../../analyst/types';

// The pure and per-turn parts of a turn: history building and event emission.

/** Messages of the chat handed to the agent (newest kept): enough context, bounded work. */
export const HISTORY_LIMIT = 50;

// What happened, without advice: the error dialog adds the spec's ". Please try again. If the
// error persists, please contact an admin." and a failed reply offers its own retry.
export const TIMEOUT_MESSAGE = 'The agent took too long to answer (over 3 minutes).';
export const FAILURE_MESSAGE = 'The agent ran into a problem and could not answer.';
/**
 * A sweep closes a reply whose writer stopped beating: the process died, or it lost its database
 * while saving. Which one is not known here, so the message claims neither a restart nor a crash.
 */
export const ORPHAN_MESSAGE =
  'This reply was interrupted: the server writing it stopped before it could save the end of it.';
export const SHUTDOWN_MESSAGE = 'This reply was interrupted because the server is restarting.';

/** The text of a stored message content: the string, or its text parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as MessagePart[])
    .filter((p): p is Extract<MessagePart, { type: 'text' }> => p?.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

/**
 * The agent's view of the chat: user messages with their attachments' bytes, and the assistant
 * answers that have text. Loading and failed replies are left out (they said nothing).
 */
export function buildHistory(
  messages: ChatMessage[],
  attachments: MessageAttachment[],
): HistoryMessage[] {
  const byMessage = new Map<string, MessageAttachment[]>();
  for (const a of attachments) {
    if (!a.messageId) continue;
    const list = byMessage.get(a.messageId) ?? [];
    list.push(a);
    byMessage.set(a.messageId, list);
  }
  const out: HistoryMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      out.push({
        role: 'user',
        text: contentText(m.content),
        attachments: (byMessage.get(m.id) ?? []).map((a) => ({
          fileName: a.fileName,
          mimeType: a.mimeType,
          data: a.data,
        })),
      });
    } else if (m.status === 'complete' || m.status === 'stopped') {
      const text = contentText(m.content);
      // The stored report, typed: a planner reads it rather than the text (docs/decisions/0018).
      const report = StructuredResponse.safeParse(m.structuredResponse);
      if (text)
        out.push({
          role: 'assistant',
          text,
          attachments: [],
          ...(report.success ? { report: report.data } : {}),
        });
    } else if (m.status === 'error' && m.error === MODEL_TRUNCATED_MESSAGE) {
      // An answer cut at the model's output limit: its partial text is what Continue goes on from.
      const text = contentText(m.content);
      if (text) out.push({ role: 'assistant', text, attachments: [], truncated: true });
    }
  }
  return out;
}

/** A reported token count as stored: a whole number, 0 when the server sent none or nonsense. */
function tokenCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.min(Math.round(n), 2_000_000_000) : 0;
}

/**
 * Turns agent events into the socket events of spec section 4, with a per-turn seq: thinking
 * opens with thinking_start and closes with thinking_end before the first answer text.
 */
export class TurnEmitter {
  private seq = 0;
  private thinking = false;
  /** The answer text so far: kept as the partial content when the turn stops or fails. */
  text = '';
  /** Tokens the turn's model calls reported so far (a failed turn still spent them). */
  readonly usage = { inputTokens: 0, outputTokens: 0 };

  constructor(
    private readonly bus: Bus,
    private readonly clock: Clock,
    readonly chatId: string,
    readonly messageId: string,
  ) {}

  async emit(
    type: StreamEventType,
    content: string,
    extra: Partial<TurnEvent> = {},
  ): Promise<void> {
    this.seq += 1;
    const event: TurnEvent = {
      type,
      content,
      timestamp: this.clock.now().toISOString(),
      chatId: this.chatId,
      messageId: this.messageId,
      seq: this.seq,
      ...extra,
    };
    await recordTurnEvent(this.bus, event);
  }

  /**
   * Handles one agent event; returns the final answer when it is the last one. A model's text is
   * made storable here, as it enters: one NUL or lone surrogate in an answer must not make the
   * reply impossible to save.
   */
  async onAgentEvent(
    raw: AgentEvent,
  ): Promise<{ text: string; report: StructuredResponse | null } | null> {
    if (raw.type === 'usage') {
      this.usage.inputTokens += tokenCount(raw.inputTokens);
      this.usage.outputTokens += tokenCount(raw.outputTokens);
      return null;
    }
    const e = storable(raw);
    if (e.type === 'thinking') {
      if (!this.thinking) {
        this.thinking = true;
        await this.emit('thinking_start', '');
      }
      await this.emit('thinking_update', e.text);
      return null;
    }
    await this.endThinking();
    if (e.type === 'text') {
      if (!e.delta) return null;
      this.text += e.delta;
      await this.emit('stream_chunk', e.delta);
      return null;
    }
    return { text: e.text, report: e.report };
  }

  async endThinking(): Promise<void> {
    if (!this.thinking) return;
    this.thinking = false;
    await this.emit('thinking_end', '');
  }
}
