/**
 * Bytes appended after a file's end (a ZIP, an HTML script, a shell script) must not come back
 * from any file endpoint, whether something was found or not.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simpleCard } from '../helpers/cards.js';
import { backends } from '../helpers/databases.js';
import { endsAtEof, markersIn, withAppended } from '../helpers/appended.js';
import * as fixtures from '../helpers/fixtures.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { fileUpload, type Part } from '../helpers/multipart.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

const AADHAAR = '2345 6789 0124';
const PAN = 'ABCPE1234F';
const IBAN = 'GB82 WEST 1234 5698 7654 32';

const textPdf = (text: string) => fixtures.pdfWithLines([[{ text, x: 72, y: 700, size: 18 }]]);

interface Case {
  readonly endpoint: string;
  readonly name: string;
  readonly make: () => Promise<Buffer> | Buffer;
  /** The count header and its value: found (above 0) or nothing found (0). */
  readonly header: string;
  readonly found: boolean;
  readonly extra?: Part[];
}

const keepMetadata: Part[] = [{ name: 'strip_metadata', value: 'false' }];

const cases: Case[] = [
  ...['mask-aadhaar', 'redact-pii'].flatMap((endpoint) => {
    const header = endpoint === 'redact-pii' ? 'x-redacted-count' : 'x-masked-count';
    return [
      {
        endpoint,
        name: 'a.pdf',
        make: () => textPdf(`Aadhaar No.: ${AADHAAR}`),
        header,
        found: true,
      },
      { endpoint, name: 'b.pdf', make: () => textPdf('Nothing here'), header, found: false },
      { endpoint, name: 'c.png', make: () => fixtures.png(), header, found: false },
      { endpoint, name: 'd.jpg', make: () => fixtures.jpeg(), header, found: false },
    ];
  }),
  {
    endpoint: 'mask-aadhaar',
    name: 'card.png',
    make: async () => (await simpleCard({ number: AADHAAR })).bytes,
    header: 'x-masked-count',
    found: true,
  },
  ...[
    { name: 'p.pdf', make: () => textPdf(`PAN: ${PAN}`), found: true },
    { name: 'q.pdf', make: () => textPdf('Nothing here'), found: false },
    { name: 'r.jpg', make: () => fixtures.jpeg(), found: false },
  ].map((c) => ({ ...c, endpoint: 'mask-pan', header: 'x-masked-count' })),
  ...[
    { name: 'g.pdf', make: () => textPdf(`Pay to IBAN ${IBAN} now.`), found: true },
    { name: 'h.pdf', make: () => textPdf('Nothing here'), found: false },
    { name: 'h2.pdf', make: () => textPdf('Nothing here'), found: false, extra: keepMetadata },
    {
      name: 'card.jpg',
      make: async () => (await simpleCard({ lines: [`IBAN ${IBAN}`], format: 'jpeg' })).bytes,
      found: true,
    },
    { name: 'i.jpg', make: () => fixtures.jpeg(), found: false },
    { name: 'i2.jpg', make: () => fixtures.jpeg(), found: false, extra: keepMetadata },
    { name: 'j.png', make: () => fixtures.png(), found: false },
    { name: 'j2.png', make: () => fixtures.png(), found: false, extra: keepMetadata },
    { name: 'k.webp', make: () => fixtures.webp(), found: false },
    { name: 'l.tiff', make: () => fixtures.tiff(), found: false },
    { name: 'm.bmp', make: () => fixtures.bmp(), found: false },
  ].map((c) => ({ ...c, endpoint: 'global/redact', header: 'x-entities-found' })),
];

describe('appended bytes never come back', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp(sqlite);
    ({ key } = await t.newKey({ monthlyQuota: 1000 }));
  });
  after(() => t.close());

  for (const c of cases) {
    const what = c.found ? 'found' : 'nothing found';
    const kept = c.extra ? ', strip_metadata=false' : '';
    it(`/api/v1/${c.endpoint}: ${c.name}, ${what}${kept}`, async () => {
      const { bytes, markers } = withAppended(await c.make());
      const form = fileUpload(bytes, c.name, c.extra);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/${c.endpoint}`,
        headers: { 'x-api-key': key, 'content-type': form.contentType },
        payload: form.body,
      });
      assert.equal(res.statusCode, 200, res.body);
      const count = Number(res.headers[c.header]);
      assert.equal(count > 0, c.found, `${c.header}: ${String(count)}`);
      assert.deepEqual(markersIn(res.rawPayload, markers), []);
      if (res.headers['content-type'] === 'application/pdf') {
        assert.ok(endsAtEof(res.rawPayload), 'ends at %%EOF');
      }
      assert.ok(res.rawPayload.length > 0);
    });
  }
});
