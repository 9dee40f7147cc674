import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertValidPrefix,
  generateKey,
  hashKey,
  hashesEqual,
  keyPrefixOf,
  looksLikeKey,
} from '../../src/accounts/keys.js';

describe('API keys', () => {
  it('have the shape <prefix>_live_<at least 32 random characters>', () => {
    const key = generateKey('acme');
    assert.match(key, /^acme_live_[A-Za-z0-9]{40}$/);
    assert.equal(keyPrefixOf(key), 'acme');
    assert.ok(looksLikeKey(key));
  });

  it('are never repeated and use the whole alphabet', () => {
    const keys = Array.from({ length: 500 }, () => generateKey());
    assert.equal(new Set(keys).size, keys.length);
    const characters = new Set(keys.join('').replaceAll('pk_live_', ''));
    assert.equal(characters.size, 62);
  });

  it('refuse prefixes that would break the shape', () => {
    for (const bad of ['', 'a', 'Acme', 'ac_me', '1abc', 'a'.repeat(17)]) {
      assert.throws(() => {
        assertValidPrefix(bad);
      }, /key prefix/);
    }
  });

  it('are hashed with SHA-256 and compared in constant time', () => {
    const key = generateKey();
    const hash = hashKey(key);
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.ok(hashesEqual(hash, hashKey(key)));
    assert.ok(!hashesEqual(hash, hashKey(`${key}x`)));
    assert.ok(!hashesEqual(hash, hash.slice(0, 62)));
  });

  it('reject strings that are not keys', () => {
    for (const text of ['pk_live_short', 'pk_test_' + 'a'.repeat(40), 'x'.repeat(60), '']) {
      assert.ok(!looksLikeKey(text), text);
    }
  });
});
