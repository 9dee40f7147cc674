import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mupdf } from '../../src/documents/mupdf.js';
import {
  assertPdfClean,
  findLeftovers,
  TextLeftError,
  type RemovedText,
  type TextComparison,
} from '../../src/pipeline/clean-output.js';

/** The page-text check alone. */
const assertTextGone = (output: Buffer, removed: readonly RemovedText[], how: TextComparison) => {
  assertPdfClean(output, { text: { removed, how } });
};
/** The annotation check alone. */
const assertNotesClean = (output: Buffer, notes: (text: string) => boolean) => {
  assertPdfClean(output, { notes });
};
import { pdfWithLines } from '../helpers/fixtures.js';

const compact = { normalise: (t: string) => t.replace(/[\s\-./]/g, '').toUpperCase(), joiner: '' };
const lines = { normalise: (t: string) => t.replace(/\D/g, ''), joiner: '|' };

// Two synthetic pages: a PAN-shaped code on page 0, a number broken over two lines on page 1.
const output = pdfWithLines([
  [{ text: 'Code: ABCDE 1234F', x: 72, y: 700 }],
  [
    { text: 'Reference 4918 7362', x: 72, y: 700 },
    { text: '5102 ends here', x: 72, y: 680 },
  ],
]);

describe('assertPdfClean: page text', () => {
  it('passes when no removed text is left', () => {
    assert.doesNotThrow(() => {
      assertTextGone(output, [{ page: null, text: 'ZZZZZ9999Z' }], compact);
    });
  });

  it('finds a value left on its own page, compared after normalising both sides', () => {
    assert.throws(() => {
      assertTextGone(output, [{ page: 0, text: 'abcde-1234-f' }], compact);
    }, TextLeftError);
  });

  it('looks only at the page named', () => {
    assert.doesNotThrow(() => {
      assertTextGone(output, [{ page: 1, text: 'ABCDE1234F' }], compact);
    });
    assert.doesNotThrow(() => {
      assertTextGone(output, [{ page: 7, text: 'ABCDE1234F' }], compact);
    });
  });

  it('finds a value broken over two lines when lines are joined without a separator', () => {
    assert.throws(() => {
      assertTextGone(output, [{ page: null, text: '4918 7362 5102' }], compact);
    }, TextLeftError);
  });

  it('keeps lines apart with a separator joiner', () => {
    assert.doesNotThrow(() => {
      assertTextGone(output, [{ page: 1, text: '491873625102' }], lines);
    });
    assert.throws(() => {
      assertTextGone(output, [{ page: 1, text: '49187362' }], lines);
    }, TextLeftError);
  });

  it('says on which pages the text is left, and when it is only across a page break', () => {
    const split = pdfWithLines([
      [{ text: 'Ends with 4918', x: 72, y: 700 }],
      [{ text: '7362 5102 and ABCDE 1234F', x: 72, y: 700 }],
    ]);
    const find = (text: string) =>
      findLeftovers(split, { text: { removed: [{ page: null, text }], how: compact } });
    assert.deepEqual(find('ABCDE1234F'), { pages: [1], acrossPages: false, inNotes: false });
    assert.deepEqual(find('491873625102'), { pages: [], acrossPages: true, inNotes: false });
    assert.deepEqual(find('ZZZZZ9999Z'), { pages: [], acrossPages: false, inNotes: false });
    assert.deepEqual(
      findLeftovers(output, {
        text: {
          removed: [
            { page: null, text: '4918 7362 5102' },
            { page: 0, text: 'ABCDE1234F' },
          ],
          how: compact,
        },
      }).pages,
      [0, 1],
    );
  });

  it('ignores removed text that normalises to nothing', () => {
    assert.doesNotThrow(() => {
      assertTextGone(output, [{ page: 0, text: 'Code' }], lines);
    });
  });
});

/** `output` with a text note on its first page holding `contents`. */
function withNote(contents: string): Buffer {
  const doc = new mupdf.PDFDocument(output);
  const note = doc.loadPage(0).createAnnotation('Text');
  note.setRect([40, 40, 60, 60]);
  note.setContents(contents);
  note.update();
  const buffer = doc.saveToBuffer('garbage');
  const bytes = Buffer.from(buffer.asUint8Array());
  buffer.destroy();
  doc.destroy();
  return bytes;
}

describe('assertPdfClean: annotations', () => {
  const holdsCode = (text: string) => text.includes('ABCDE1234F');

  it('finds a value left in an annotation', () => {
    assert.throws(() => {
      assertNotesClean(withNote('see ABCDE1234F'), holdsCode);
    }, TextLeftError);
  });

  it('passes annotations without values and pages without annotations', () => {
    assert.doesNotThrow(() => {
      assertNotesClean(withNote('see [IN_PAN_1]'), holdsCode);
    });
    // The page's own text holds the code; only annotations are this check's business.
    assert.doesNotThrow(() => {
      assertNotesClean(output, holdsCode);
    });
  });
});
