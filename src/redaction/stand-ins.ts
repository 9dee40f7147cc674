/**
 * Stand-ins for one request (the type's published rule): tokens numbered per type and pseudonyms
 * drawn from HMAC(K, type, value) under a key K drawn for this request and then dropped, so
 * that a value gets the same replacement everywhere in one request and an unrelated one in the
 * next. Two values never share a pseudonym: a collision is drawn again, and a type whose
 * reserved space runs out falls back to tokens, which the caller reports. A value keeps the type
 * it was first replaced as: nine digits read as an SSN on one page and as a phone number on the
 * next (other words around them) still get one stand-in throughout the document.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Draw, GlobalRule } from '../identifiers/global-rule.js';

/** Attempts at a pseudonym no other value of the type has, before falling back to a token. */
const MAX_DRAWS = 16;

/** Deterministic bytes from HMAC(key, type, value, attempt), as many as asked for. */
function drawFor(key: Buffer, type: string, value: string, attempt: number): Draw {
  let block = 0;
  let pool = Buffer.alloc(0);
  return (count: number) => {
    while (pool.length < count) {
      const next = createHmac('sha256', key)
        .update(`${type}\u0000${value}\u0000${attempt}\u0000${block}`)
        .digest();
      block += 1;
      pool = Buffer.concat([pool, next]);
    }
    const out = new Uint8Array(pool.subarray(0, count));
    pool = pool.subarray(count);
    return out;
  };
}

interface Seen {
  readonly type: string;
  readonly rule?: GlobalRule;
  readonly value: string;
}

export class StandIns {
  private readonly key = randomBytes(32);
  private readonly tokens = new Map<string, Map<string, string>>();
  /** Per type: the draw attempt each value's pseudonym came from ('token' when none was free). */
  private readonly attempts = new Map<string, Map<string, number | 'token'>>();
  /** Per type: the pseudonyms given out, compacted. */
  private readonly given = new Map<string, Set<string>>();
  /** Types whose reserved space ran out in this request (they got tokens instead). */
  readonly fellBack = new Set<string>();
  /** The rule and compact value each printed value (its letters and digits) was first given. */
  private readonly firstSeen = new Map<string, Seen>();

  /** The type and value a stand-in for `value` comes from: those it was first replaced as. */
  private settle(seen: Seen): Seen {
    const key = seen.value.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
    const first = this.firstSeen.get(key);
    // A token's record (no rule) gives way to a pseudonym's, which needs the rule.
    if (first === undefined || (first.rule === undefined && seen.rule !== undefined)) {
      this.firstSeen.set(key, seen);
      return seen;
    }
    return first;
  }

  /** `[<TYPE>_<n>]`, n counting the distinct values of the type in order of appearance. */
  token(seenType: string, seenValue: string): string {
    const { type, value } = this.settle({ type: seenType, value: seenValue });
    const byValue = entry(this.tokens, type, () => new Map<string, string>());
    let token = byValue.get(value);
    if (token === undefined) {
      token = `[${type}_${byValue.size + 1}]`;
      byValue.set(value, token);
    }
    return token;
  }

  /**
   * A stand-in of the printed shape of `raw` from the type's reserved space; the same value
   * printed otherwise ("123-45-6789", "123456789") gets the same stand-in in its own shape.
   */
  pseudonym(seenRule: GlobalRule, seenValue: string, raw: string): string {
    const first = this.settle({ type: seenRule.type, rule: seenRule, value: seenValue });
    const { rule = seenRule, value } = first;
    const attempts = entry(this.attempts, rule.type, () => new Map<string, number | 'token'>());
    const given = entry(this.given, rule.type, () => new Set<string>());
    let attempt = attempts.get(value);
    if (attempt === undefined) {
      attempt = 'token';
      for (let n = 0; n < MAX_DRAWS; n += 1) {
        const canonical = rule.compact(rule.pseudonym(raw, drawFor(this.key, rule.type, value, n)));
        if (given.has(canonical)) continue;
        given.add(canonical);
        attempt = n;
        break;
      }
      attempts.set(value, attempt);
    }
    if (attempt === 'token') {
      this.fellBack.add(rule.type);
      return this.token(rule.type, value);
    }
    return rule.pseudonym(raw, drawFor(this.key, rule.type, value, attempt));
  }
}

function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
