import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../../helpers/databases.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

// Values valid by their published rules: a Visa test card (Luhn), the textbook IBAN (mod 97), an
// SSN outside the never-issued areas, an address at an ordinary domain.
const CARD = '4111 1111 1111 1111';
const IBAN = 'GB82 WEST 1234 5698 7654 32';
const SSN = '536-22-1234';
const EMAIL = 'jane.doe@mailbox.co.uk';

interface TextReply {
  redacted_text: string;
  mode: string;
  entities: {
    type: string;
    start: number;
    end: number;
    confidence: number;
    validated: boolean;
    validation: string;
  }[];
  rejected_candidates: { type: string; reason: string; start: number; end: number }[];
  summary: Record<string, number>;
  pseudonym_fallbacks: string[];
}

describe('POST /api/v1/global/redact/text', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  before(async () => {
    t = await startTestApp(sqlite, { env: { PARDA_MAX_TEXT_MB: '1' } });
    ({ key, id: keyId } = await t.newKey({ monthlyQuota: 100 }));
  });
  after(() => t.close());

  const redact = (body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/global/redact/text',
      headers: { 'x-api-key': key },
      payload: body,
    });
  const used = async () => (await t.store.quota(await t.store.getKey(keyId))).used;

  it('replaces each value by a token numbered per type, the same value the same token', async () => {
    const text = `Card ${CARD}, again ${CARD.replace(/ /g, '-')}; IBAN ${IBAN}.\nMail ${EMAIL}`;
    const before = await used();
    const res = await redact({ text });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<TextReply>();
    assert.equal(
      body.redacted_text,
      'Card [PAYMENT_CARD_1], again [PAYMENT_CARD_1]; IBAN [IBAN_1].\nMail [EMAIL_1]',
    );
    assert.equal(body.mode, 'token');
    assert.equal(res.headers['x-entities-found'], '4');
    assert.deepEqual(body.summary, { PAYMENT_CARD: 2, IBAN: 1, EMAIL: 1 });
    // Spans point at the values in the text as sent.
    assert.deepEqual(
      body.entities.map((e) => [e.type, text.slice(e.start, e.end)]),
      [
        ['PAYMENT_CARD', CARD],
        ['PAYMENT_CARD', CARD.replace(/ /g, '-')],
        ['IBAN', IBAN],
        ['EMAIL', EMAIL],
      ],
    );
    assert.ok(body.entities.every((e) => e.validated && e.validation.length > 0));
    // The report holds no value, in any form.
    for (const digits of ['4111111111111111', '1111', 'WEST', 'jane.doe', '98765']) {
      assert.ok(!JSON.stringify(body.entities).includes(digits), digits);
    }
    assert.equal(await used(), before + 1);
  });

  it('counts offsets in code points, as Python indexes strings', async () => {
    const text = `\u{1F600} IBAN ${IBAN}`;
    const body = (await redact({ text })).json<TextReply>();
    const [entity] = body.entities;
    assert.ok(entity);
    assert.deepEqual([entity.start, entity.end], [7, 7 + IBAN.length]);
  });

  it('masks all but the last mask_keep characters, keeping separators', async () => {
    const keep4 = (await redact({ text: `Card ${CARD}`, mode: 'mask' })).json<TextReply>();
    assert.equal(keep4.redacted_text, 'Card **** **** **** 1111');
    const keep0 = await redact({ text: `Card ${CARD}`, mode: 'mask', mask_keep: 0 });
    assert.equal(keep0.json<TextReply>().redacted_text, 'Card **** **** **** ****');
  });

  it('boxes every value with the same run, whatever its length', async () => {
    const body = (await redact({ text: `${CARD} / ${EMAIL}`, mode: 'box' })).json<TextReply>();
    assert.equal(body.redacted_text, '\u2588'.repeat(8) + ' / ' + '\u2588'.repeat(8));
  });

  it('gives pseudonyms of the same shape, one per value within a request, fresh per request', async () => {
    const text = `IBAN ${IBAN} and ${IBAN}; card ${CARD}`;
    const first = (await redact({ text, mode: 'pseudonym' })).json<TextReply>();
    const match =
      /^IBAN (GB00 [A-Z]{4} \d{4} \d{4} \d{4} \d{2}) and (\S+ \S+ \S+ \S+ \S+ \S+);/.exec(
        first.redacted_text,
      );
    assert.ok(match, first.redacted_text);
    assert.equal(match[1], match[2], 'the same value, the same stand-in');
    assert.ok(!first.redacted_text.includes(IBAN));
    assert.ok(!first.redacted_text.includes(CARD));
    const second = (await redact({ text, mode: 'pseudonym' })).json<TextReply>();
    assert.notEqual(first.redacted_text, second.redacted_text, 'unrelated across requests');
    // A stand-in is never found again.
    const again = (await redact({ text: first.redacted_text })).json<TextReply>();
    assert.deepEqual(again.entities, []);
  });

  it('limits country types to the countries asked for; universal types still apply', async () => {
    const text = `SSN ${SSN}, card ${CARD}`;
    const all = (await redact({ text })).json<TextReply>();
    assert.deepEqual(Object.keys(all.summary).sort(), ['PAYMENT_CARD', 'US_SSN']);
    const gb = (await redact({ text, countries: 'GB' })).json<TextReply>();
    assert.deepEqual(gb.summary, { PAYMENT_CARD: 1 });
    const only = (await redact({ text, entity_types: ['us_ssn'] })).json<TextReply>();
    assert.equal(only.redacted_text, 'SSN [US_SSN_1], card ' + CARD);
  });

  it('returns the text unchanged and charges nothing when nothing is found', async () => {
    const before = await used();
    const res = await redact({ text: 'Invoice 2024-0042, Rs. 1,250.00, 12 March 2024.' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-entities-found'], '0');
    assert.equal(
      res.json<TextReply>().redacted_text,
      'Invoice 2024-0042, Rs. 1,250.00, 12 March 2024.',
    );
    assert.equal(await used(), before);
  });

  it('refuses bad options with their own codes, and an oversized text with 413', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ text: 'x', mask_keep: 9 }, 422, 'invalid_mask_keep'],
      [{ text: 'x', mask_keep: '-1' }, 422, 'invalid_mask_keep'],
      [{ text: 'x', mode: 'blur' }, 422, 'invalid_mode'],
      [{ text: 'x', entity_types: 'IBAN,FOO' }, 422, 'unknown_type'],
      [{ text: 'x', countries: 'USA' }, 422, 'invalid_country'],
      [{ mode: 'token' }, 422, 'invalid_request'],
      [{ text: 'x'.repeat(1024 * 1024 + 1) }, 413, 'text_too_large'],
    ];
    const before = await used();
    for (const [body, status, code] of cases) {
      const res = await redact(body);
      assert.equal(res.statusCode, status, `${code}: ${res.body.slice(0, 200)}`);
      assert.equal(res.json<{ error: string }>().error, code);
    }
    assert.equal(await used(), before);
  });

  it('needs a key', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/global/redact/text',
      payload: { text: CARD },
    });
    assert.equal(res.statusCode, 401);
  });
  it('refuses a text that is not a string with 422 invalid_request naming `text`, uncharged', async () => {
    const before = await used();
    for (const text of [5, 0, null, true, false, { value: CARD }, [CARD], []]) {
      const res = await redact({ text });
      assert.equal(res.statusCode, 422, JSON.stringify(text));
      assert.deepEqual(res.json(), {
        error: 'invalid_request',
        message: 'Invalid request: `text` must be a string.',
      });
    }
    assert.equal(await used(), before);
  });

  it('refuses a body that is not UTF-8 with 422 invalid_request naming `text`', async () => {
    const utf8 = Buffer.from(JSON.stringify({ text: `Grüße, card ${CARD}` }));
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/global/redact/text',
      headers: { 'x-api-key': key, 'content-type': 'application/json; charset=utf-8' },
      payload: utf8,
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json<TextReply>().redacted_text, 'Grüße, card [PAYMENT_CARD_1]');
    // The same text in Latin-1 (ü as 0xFC), a lone continuation byte, and a cut-off sequence.
    const bodies = [
      Buffer.from(JSON.stringify({ text: `Grüße, card ${CARD}` }), 'latin1'),
      Buffer.concat([Buffer.from('{"text":"a'), Buffer.from([0x80]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"text":"a'), Buffer.from([0xe0, 0xa4]), Buffer.from('"}')]),
    ];
    for (const payload of bodies) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/global/redact/text',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload,
      });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), {
        error: 'invalid_request',
        message: 'Invalid request: `text` must be UTF-8; the body is not.',
      });
    }
  });

  it('still answers malformed JSON with 400 malformed_request', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/global/redact/text',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: '{"text": ',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json<{ error: string }>().error, 'malformed_request');
  });
});
