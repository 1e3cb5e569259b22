import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryAttachment } from '../types';
import { extractDocument, htmlToText } from './documents';
import { closeToolPool, runTool, toolTimeMessage } from './runner';

afterAll(() => closeToolPool());

const html = (fileName: string, text: string): HistoryAttachment => ({
  fileName,
  mimeType: 'text/html',
  data: Buffer.from(text),
});

describe('HTML attachments', () => {
  it('reads the visible text, one block per line, without scripts, styles or comments', () => {
    expect(
      htmlToText(
        `<html><head><title>Pricing</title><style>p { color: red }</style></head><body>
         <h1>Plans &amp; prices</h1><script>var a = "<p>no</p>";</script><!-- hidden -->
         <p>Basic:&nbsp;10&#8364; a month</p><ul><li>One user</li><li>Mail <b>support</b></li></ul>
         <noscript>Turn on JavaScript</noscript><template><p>later</p></template>Line<br>break</body></html>`,
      ),
    ).toBe('Pricing\nPlans & prices\nBasic: 10€ a month\n- One user\n- Mail support\nLine\nbreak');
  });

  // 5 MB of `<script>x ` ran until the turn's 180 s limit with the regular expressions this
  // replaced (quadratic on unclosed tags), holding an analysis worker all that time.
  it.each(['<script>x ', '<style>x ', '<noscript>x ', '<!--x ', '<a x '])(
    'reads 5 MB of %s repeated in a few seconds at most',
    async (piece) => {
      const doc = await extractDocument(
        html('crafted.html', piece.repeat(Math.ceil(5_000_000 / piece.length))),
      );
      expect(doc.ok ? doc.text : doc.error).toBeDefined();
    },
    20_000,
  );

  it('stops a tool call past its time limit, which frees its worker for another user', async () => {
    // Heavy but sound: 30 MB of list items takes seconds to read, whoever reads it.
    const heavy = html('huge.html', '<li>item '.repeat(3_000_000));
    const limitMs = 1_000;
    // Two heavy calls occupy every worker of the pool (at most two).
    const heavyCalls = [1, 2].map(() =>
      runTool('read_document', { file: 'huge.html' }, [heavy], undefined, { timeLimitMs: limitMs }),
    );
    const csv: HistoryAttachment = {
      fileName: 'team.csv',
      mimeType: 'text/csv',
      data: Buffer.from(
        'name,department,salary\nAda,Finance,52000\nBo,Sales,48000\nCy,Sales,51000\n',
      ),
    };
    const small = runTool('read_tables', {}, [csv]);
    expect(await Promise.all(heavyCalls)).toEqual([
      { error: toolTimeMessage(limitMs) },
      { error: toolTimeMessage(limitMs) },
    ]);
    const read = (await small) as { tables: Array<{ rows: number }> };
    expect(read.tables.map((t) => t.rows)).toEqual([3]);
  }, 60_000);
});
