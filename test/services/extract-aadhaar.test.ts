/**
 * Every extraction warning comes from a case that should raise it, measured on a generated
 * card, and none is raised on a clean card.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readAadhaarCard } from '../../src/cards/aadhaar-fields.js';
import { loadSettings } from '../../src/config/settings.js';
import { serviceContext } from '../../src/services/context.js';
import { closeEngines } from '../../src/services/engines.js';
import { describeAadhaar, extractAadhaarFile } from '../../src/services/extract-aadhaar.js';
import { extractPanFile } from '../../src/services/extract-pan.js';
import { generateCard, type CardKind, type GeneratedCard } from '../fixtures/cards/index.js';
import { line, page } from '../helpers/text-layer.js';

const context = serviceContext(loadSettings({}));

/** The first card of a kind (from seed 1) that the predicate accepts. */
async function cardWhere(
  kind: CardKind,
  accept: (card: GeneratedCard) => boolean,
): Promise<GeneratedCard> {
  for (let seed = 1; seed < 200; seed += 1) {
    const card = await generateCard(kind, seed);
    if (accept(card)) return card;
  }
  throw new Error(`no ${kind} card fits`);
}

const rotated = (card: GeneratedCard) => card.tags.some((t) => /^rot-(90|180|270)$/.test(t));
const upright = (card: GeneratedCard) => !rotated(card);

async function warnings(card: GeneratedCard): Promise<string[]> {
  const upload = { bytes: card.bytes, filename: card.filename };
  const result = card.kind.startsWith('pan-')
    ? await extractPanFile(context, upload, false)
    : await extractAadhaarFile(context, upload, { includeConfidence: false, reveal: false });
  return result.warnings;
}

describe('extraction warnings', () => {
  after(() => closeEngines());

  it('raises none on a clean scan of both sides', async () => {
    const card = await cardWhere(
      'aadhaar-both',
      (c) => upright(c) && c.tags.includes('scan') && !c.tags.includes('letter'),
    );
    assert.deepEqual(await warnings(card), []);
  });

  it('raises none on a clean PAN card', async () => {
    const card = await cardWhere('pan-new-scan', upright);
    assert.deepEqual(await warnings(card), []);
  });

  it('low_contrast on a faded scan', async () => {
    const card = await cardWhere('aadhaar-low-contrast', upright);
    assert.ok((await warnings(card)).includes('low_contrast'));
  });

  it('single_side_only on a front alone', async () => {
    const card = await cardWhere('aadhaar-front-scan', upright);
    assert.deepEqual(await warnings(card), ['single_side_only']);
  });

  it('rotated_input on a card turned a quarter or half turn', async () => {
    const card = await cardWhere('aadhaar-front-scan', rotated);
    assert.ok((await warnings(card)).includes('rotated_input'));
  });

  it('year_of_birth_only on a card that prints only the year', async () => {
    const card = await cardWhere('aadhaar-year-only', upright);
    assert.ok((await warnings(card)).includes('year_of_birth_only'));
  });

  it('partial_address when the address was read with low confidence or without a pincode', () => {
    const reading = (confidence: number, last: string) => {
      const lines = [
        line('Unique Identification Authority of India', { y: 10 }),
        line('Address: S/O: Ramesh Sharma, H.No. 12,', { y: 40, confidence }),
        line(last, { y: 70, confidence }),
      ];
      const pages = [page(lines)];
      return describeAadhaar(
        readAadhaarCard(pages),
        { pages, qrs: [], rasters: [], contrast: 200 },
        { includeConfidence: false, reveal: false },
      ).warnings;
    };
    assert.deepEqual(reading(0.97, 'Lucknow, Uttar Pradesh - 226010'), ['single_side_only']);
    assert.ok(reading(0.6, 'Lucknow, Uttar Pradesh - 226010').includes('partial_address'));
    assert.ok(reading(0.97, 'Lucknow, Uttar Pradesh').includes('partial_address'));
  });
});
