import { describe, expect, it } from 'vitest';
import type { SavedFileDto } from '@contract/files';
import { useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';
import { userWithChat } from '../../test-support/conversation';
import { scriptedAgentFor } from '../../test-support/scripted-agents';

describe('saved files of a chat', () => {
  const t = useTestApp({ agentFor: scriptedAgentFor });

  const save = (cookie: string, chatId: string, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/chats/${chatId}/files`,
      headers: { cookie },
      payload,
    });

  it('saves, lists and deletes files, typed by extension', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const md = await save(cookie, chat.id, {
      fileName: 'report.md',
      fileContent: '# Report',
      fileType: 'markdown',
    });
    expect(md.statusCode).toBe(201);
    await save(cookie, chat.id, { fileName: 'Chart.HTML', fileContent: '<p>chart</p>' });
    await save(cookie, chat.id, { fileName: 'data.csv', fileContent: 'a,b' });

    const list = await t.app.inject({
      method: 'GET',
      url: `/api/chats/${chat.id}/files`,
      headers: { cookie },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json<SavedFileDto[]>().map((f) => [f.fileName, f.fileType, f.fileContent])).toEqual(
      [
        ['report.md', 'markdown', '# Report'],
        ['Chart.HTML', 'html', '<p>chart</p>'],
        ['data.csv', 'text', 'a,b'],
      ],
    );

    const id = md.json<SavedFileDto>().id;
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${id}`,
      headers: { cookie },
    });
    expect(del.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${id}`,
      headers: { cookie },
    });
    expect(again.statusCode).toBe(404);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/chats/${chat.id}/files`,
      headers: { cookie },
    });
    expect(after.json<SavedFileDto[]>()).toHaveLength(2);
  });

  it('answers 409 when the chat already has a file of that name', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    await save(cookie, chat.id, { fileName: 'plan.md', fileContent: 'v1' });
    const dup = await save(cookie, chat.id, { fileName: 'plan.md', fileContent: 'v2' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      message: 'plan.md is already in your saved files',
      code: 'FILE_ALREADY_SAVED',
    });
    // Another chat may hold the same name.
    const { chat: other } = await userWithChat(t, 'scripted:quick');
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: `/api/chats/${other.id}/files`,
      headers: { cookie },
      payload: { fileName: 'plan.md', fileContent: 'v1' },
    });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('keeps files to the chat owner and validates the payload', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const saved = (
      await save(cookie, chat.id, { fileName: 'mine.txt', fileContent: 'secret' })
    ).json<SavedFileDto>();
    const other = await signedInUser(t);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/chats/${chat.id}/files`,
          headers: { cookie: other.cookie },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await save(other.cookie, chat.id, { fileName: 'x.txt', fileContent: 'x' })).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/files/${saved.id}`,
          headers: { cookie: other.cookie },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/files/not-a-uuid', headers: { cookie } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/chats/${chat.id}/files` })).statusCode,
    ).toBe(401);
    const empty = await save(cookie, chat.id, { fileName: ' ', fileContent: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('File name is required');
  });
});
