/**
 * Synthetic sample documents for trying every endpoint by hand:
 *   node dist/tools/make-samples.js [folder]        (`make samples`: folder samples/)
 * Every person, number and address comes from the seeded test generators (test/fixtures/), so
 * nothing here is real data and the same files come out every time; identifiers carry valid
 * check digits because the generators compute them. Prints one line per file: the file and a
 * curl command to try it with (the key in $PARDA_KEY, the service on 127.0.0.1:8000).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { generateDocument } from '../test/fixtures/aadhaar/index.js';
import { Rng } from '../test/fixtures/aadhaar/random.js';
import { generateCard } from '../test/fixtures/cards/index.js';
import { generateVerifyCard } from '../test/fixtures/cards/verify-kinds.js';
import { makeNegative, makeValue } from '../test/fixtures/global/values.js';
import { generateRedactionDocument } from '../test/fixtures/redaction/index.js';
import { pdfWithLines, type PdfLine } from '../test/helpers/fixtures.js';

const SERVICE = 'http://127.0.0.1:8000';
/** One seed for every generator: change it for another set of invented people. */
const SEED = 2026;

interface Sample {
  readonly name: string;
  readonly bytes: Buffer;
  /** What to try it on, as a curl command; `FILE` stands for the sample's path. */
  readonly tryIt: string;
}

const KEY = '-H "X-API-Key: $PARDA_KEY"';

/** A multipart upload of the sample to `route`, headers shown, the reply saved as `output`. */
const upload = (route: string, output: string, parts = '') =>
  `curl -sS -D - ${KEY} -F file=@FILE${parts} -o ${output} ${SERVICE}${route}`;

/** An upload whose reply is JSON, printed. */
const uploadForJson = (route: string, parts = '') =>
  `curl -sS ${KEY} -F file=@FILE${parts} ${SERVICE}${route}`;

async function as(format: 'jpeg' | 'png', bytes: Buffer, has: string): Promise<Buffer> {
  if (has === format) return bytes;
  const image = sharp(bytes);
  return format === 'jpeg' ? image.jpeg({ quality: 92 }).toBuffer() : image.png().toBuffer();
}

/** The lines of a letter holding Indian and global identifiers, each invented and valid. */
function letterLines(): string[] {
  const rng = new Rng(SEED);
  const value = {
    iban: makeValue('IBAN', rng),
    nino: makeValue('UK_NINO', rng),
    pan: makeValue('IN_PAN', rng),
    aadhaar: makeValue('IN_AADHAAR', rng),
    card: makeValue('PAYMENT_CARD', rng),
  };
  const invoice = makeNegative('invoice_number', rng);
  return [
    'Sample letter: synthetic data made by tools/make-samples.ts. No real person.',
    '',
    'Dear customer,',
    `We have received your payment for invoice ${invoice}. The refund of the`,
    `overpayment goes to your account, IBAN ${value.iban}.`,
    `Our records hold your National Insurance number ${value.nino}.`,
    `For your account in India we hold PAN ${value.pan} and`,
    `Aadhaar ${value.aadhaar}.`,
    `The card on file is ${value.card}.`,
    'Write to us with any question.',
    '',
    'Yours sincerely,',
    'The accounts team',
  ];
}

/** The letter as a one-page PDF whose text is real PDF text (Helvetica). */
function letterPdf(lines: readonly string[]): Buffer {
  const page: PdfLine[] = lines.map((text, i) => ({ text, x: 60, y: 770 - i * 20, size: 11 }));
  if (lines.some((line) => /[()\\]/.test(line))) throw new Error('unescaped PDF text');
  return pdfWithLines([page]);
}

async function samples(): Promise<Sample[]> {
  const aadhaar = await generateDocument('front-photo', SEED);
  const pan = await generateCard('pan-new-scan', SEED, { lossless: true });
  const verifiable = await generateVerifyCard('genuine-scan', SEED);
  const scanned = await generateRedactionDocument('scanned-pdf', SEED);
  const letter = letterLines();
  const verifyName = `aadhaar-secure-qr.${verifiable.format === 'jpeg' ? 'jpg' : 'png'}`;
  return [
    {
      name: 'aadhaar-card.jpg',
      bytes: await as('jpeg', aadhaar.bytes, aadhaar.format),
      tryIt: upload('/api/v1/mask-aadhaar', 'aadhaar-card_masked.jpg'),
    },
    {
      name: 'pan-card.png',
      bytes: await as('png', pan.bytes, pan.format),
      tryIt: uploadForJson('/api/v1/extract-pan', ' -F include_confidence=true'),
    },
    {
      name: verifyName,
      bytes: verifiable.bytes,
      // Signed with the TEST-ONLY key: trust its certificate to see a pass (docs/configuration.md).
      tryIt: uploadForJson('/api/v1/verify-document'),
    },
    {
      name: 'scanned-letters.pdf',
      bytes: scanned.bytes,
      tryIt: upload('/api/v1/redact-pii', 'scanned-letters_redacted.pdf'),
    },
    {
      name: 'letter.pdf',
      bytes: letterPdf(letter),
      tryIt: upload('/api/v1/global/redact', 'letter_redacted.pdf', ' -F mode=token'),
    },
    {
      name: 'letter.txt',
      bytes: Buffer.from(`${letter.join('\n')}\n`),
      tryIt:
        `jq -Rs '{text: .}' FILE | curl -sS ${KEY} -H "Content-Type: application/json" ` +
        `--data-binary @- ${SERVICE}/api/v1/global/redact/text`,
    },
    {
      name: 'letter.json',
      bytes: Buffer.from(`${JSON.stringify({ text: letter.join('\n'), mode: 'token' })}\n`),
      tryIt:
        `curl -sS ${KEY} -H "Content-Type: application/json" --data-binary @FILE ` +
        `${SERVICE}/api/v1/global/redact/text`,
    },
  ];
}

const folder = process.argv[2] ?? 'samples';
await fs.mkdir(folder, { recursive: true });
for (const sample of await samples()) {
  const file = path.join(folder, sample.name);
  await fs.writeFile(file, sample.bytes);
  process.stdout.write(`${file}\t${sample.tryIt.replace('FILE', file)}\n`);
}
