/**
 * A second look at the rows of a card front from which a field was not read. On a small,
 * blurred or faded card, or under a stamp, the detector finds "DOB:" and nothing after it (the
 * date fused with the stamp into a region it cannot box), the recogniser drops a digit or a
 * slash at that size ("DB:05/01/991"), or the gender line under the birth line is not boxed at
 * all. Read again, the row enlarged, the value usually reads. Only where such a row was read
 * without its value (aadhaar-fields.ts: `birthUnread`, `genderUnread`), so every other card pays
 * nothing.
 */
import { findGender, WORN_YEAR_LABEL, type AadhaarCardText } from '../cards/aadhaar-fields.js';
import type { PlacedLine } from '../cards/placed-lines.js';
import { findDateLoosely, findYear } from '../cards/text-values.js';
import { frameOfQuad, frameQuad, type Quad } from '../domain/geometry.js';
import type { PageText } from '../domain/text-layer.js';
import { pixelBoxAround, scaledRegion } from '../documents/scaled-region.js';
import { boundsOf } from '../redaction/geometry.js';
import type { OcrEngine } from '../ocr/types.js';
import type { CardReading } from './card-reading.js';

/**
 * How far past the line the birth row is read, in line heights: "DOB: 20/10/1989" after a
 * label read alone is about seven of them; a misread date line may be cut short.
 */
const BIRTH_ROW_AFTER = 9;
/** The gender row ("पुरुष / MALE", "महिला / FEMALE") from the birth line's start. */
const GENDER_ROW_LENGTH = 10;
/**
 * The heights, in pixels, the row's line box is enlarged to (never shrunk), tried in turn: the
 * first reads most rows; where it misreads one (a colon read as a digit), the second often does.
 */
const LINE_HEIGHTS = [40, 80];
const MAX_SCALE = 4;

/** The lines read again on `line`'s row (`quad`), in its orientation, each enlargement in turn. */
async function* rowReadings(
  line: PlacedLine,
  quad: Quad,
  reading: CardReading,
  ocr: OcrEngine,
): AsyncGenerator<{ text: string; confidence: number }> {
  const raster = reading.rasters[line.page];
  if (!raster) return;
  const h = frameOfQuad(line.quad, line.orientation).thickness;
  const box = pixelBoxAround(raster, boundsOf(quad), 0.5 * h);
  for (const height of LINE_HEIGHTS) {
    const scale = Math.min(MAX_SCALE, Math.max(1, height / Math.max(1, h)));
    const enlarged = await scaledRegion(raster, box, scale, scale);
    if (!enlarged) return;
    const again: PageText = await ocr.read(enlarged, line.page, 'text');
    // The row read as one text, in reading order: a value may come back as a line of its own.
    const lines = again.lines.filter((l) => l.orientation === line.orientation);
    yield {
      text: lines.map((l) => l.text).join(' '),
      confidence: Math.min(line.confidence, ...lines.map((l) => l.confidence)),
    };
  }
}

type BirthValue = Pick<AadhaarCardText, 'dateOfBirth' | 'yearOfBirth' | 'birthLabel'>;

/** The birth value on `line`'s row: a date, or a year under a year label or its remains. */
async function birthOnRow(
  line: PlacedLine,
  kind: 'date' | 'year',
  reading: CardReading,
  ocr: OcrEngine,
): Promise<BirthValue | null> {
  const frame = frameOfQuad(line.quad, line.orientation);
  // Half a line before it (a misread line may have lost its first characters).
  const row = frameQuad(
    frame,
    -0.5 * frame.thickness,
    frame.length + BIRTH_ROW_AFTER * frame.thickness,
  );
  for await (const { text, confidence } of rowReadings(line, row, reading, ocr)) {
    // "Year of Birth : 26-11-2009" prints a whole date under a year label: reported as a date.
    const date = findDateLoosely(text);
    if (date)
      return {
        dateOfBirth: { value: date.iso, confidence },
        yearOfBirth: null,
        birthLabel: 'date',
      };
    const year = kind === 'year' || WORN_YEAR_LABEL.test(text) ? findYear(text) : null;
    if (year)
      return {
        dateOfBirth: null,
        yearOfBirth: { value: year.year, confidence },
        birthLabel: 'year',
      };
  }
  return null;
}

/** The gender on the row under the birth `line`. */
async function genderUnder(
  line: PlacedLine,
  reading: CardReading,
  ocr: OcrEngine,
): Promise<AadhaarCardText['gender']> {
  const frame = frameOfQuad(line.quad, line.orientation);
  const h = frame.thickness;
  // One row down: the frame moved across the text by a line and a little.
  const down = 1.1 * h;
  const next = { ...frame, ox: frame.ox + down * frame.dx, oy: frame.oy + down * frame.dy };
  const below = frameQuad(next, -0.5 * h, GENDER_ROW_LENGTH * h);
  for await (const { text, confidence } of rowReadings(line, below, reading, ocr)) {
    const found = findGender(text, true);
    if (found) return { value: found.value, confidence };
  }
  return null;
}

/** `card` with its birth and gender read again where their rows were read without a value. */
export async function lookAgainAtFields(
  card: AadhaarCardText,
  reading: CardReading,
  ocr: OcrEngine,
): Promise<AadhaarCardText> {
  let out = card;
  if (card.birthUnread) {
    const found = await birthOnRow(card.birthUnread, card.birthLabel ?? 'date', reading, ocr);
    if (found) out = { ...out, ...found, birthUnread: null };
  }
  if (card.genderUnread) {
    const gender = await genderUnder(card.genderUnread, reading, ocr);
    if (gender) out = { ...out, gender, genderUnread: null };
  }
  return out;
}
