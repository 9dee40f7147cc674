/**
 * A value as a report may show it (`value_preview`): mostly asterisks, one asterisk per
 * character, with the last characters kept only where the value is long enough that they say
 * nothing on their own (the last four of a card, as receipts print them).
 */
export function previewOf(value: string): string {
  const chars = Array.from(value);
  const kept = chars.length >= 12 ? 4 : chars.length >= 8 ? 2 : 0;
  return '*'.repeat(chars.length - kept) + chars.slice(chars.length - kept).join('');
}

/** The preview of a candidate as printed: its spaces dropped, as the value would be. */
export const previewOfPrinted = (printed: string): string => previewOf(printed.replace(/\s+/g, ''));
