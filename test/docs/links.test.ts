/**
 * The repository explains itself: every relative link of README.md and docs/ reaches a file of
 * the repository (and a heading, where it names one), and no document points outside it except
 * to public web sites.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../../src/api/routes/web.js';

const root = packageRoot();
const documents = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name)),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (text: string) =>
  new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? '')));

/** The targets of the Markdown links and images of a text, code blocks left out. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
}

describe('the documentation links', () => {
  it('reach files and headings of the repository, or public web sites', () => {
    const broken: string[] = [];
    for (const document of documents) {
      const text = fs.readFileSync(path.join(root, document), 'utf8');
      for (const link of linksOf(text)) {
        if (/^https:\/\//.test(link)) {
          if (/localhost|127\.0\.0\.1/.test(link)) broken.push(`${document}: ${link}`);
          continue;
        }
        if (/^[a-z]+:/i.test(link)) {
          broken.push(`${document}: ${link} (not a public https address)`);
          continue;
        }
        const [file = '', anchor] = link.split('#');
        const target = file === '' ? document : path.join(path.dirname(document), file);
        const full = path.resolve(root, target);
        if (!full.startsWith(root + path.sep) || !fs.existsSync(full)) {
          broken.push(`${document}: ${link}`);
          continue;
        }
        if (anchor && target.endsWith('.md')) {
          if (!anchorsOf(fs.readFileSync(full, 'utf8')).has(anchor)) {
            broken.push(`${document}: ${link} (no such heading)`);
          }
        }
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(documents.length >= 8, 'README and the docs were read');
  });

  it('name no team-only file and no machine path', () => {
    for (const document of documents) {
      const text = fs.readFileSync(path.join(root, document), 'utf8');
      assert.doesNotMatch(text, /\.\.\/shared|\/work\/|interface\.md|DESIGN\.md/, document);
    }
  });
});
