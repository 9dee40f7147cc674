/** The pieces every catalogue entry builds its pattern and its compact form from. */

/** Letters and digits only, upper case: the compact form of codes printed with separators. */
export const alnum = (raw: string): string => raw.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

/** Digits only: the compact form of numbers printed in groups. */
export const digits = (raw: string): string => raw.replace(/[^0-9]/g, '');

/**
 * `body` as a global pattern that never takes a value out of a longer run: no letter or digit
 * right before or after it, nor, at a digit end, another digit group joined by a space, dot,
 * hyphen, colon or slash (so no twelve digits are read out of a 4-4-4-4 Virtual ID or card
 * number, however its groups are joined).
 */
export const bounded = (body: string): RegExp =>
  new RegExp(
    `(?<![A-Za-z0-9])(?<![0-9][ .:/-](?=[0-9]))(?:${body})(?![A-Za-z0-9])(?![ .:/-][0-9](?<=[0-9][ .:/-][0-9]))`,
    'g',
  );
