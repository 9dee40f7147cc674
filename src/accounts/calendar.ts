/** Quotas roll over by calendar month in UTC; paid periods end at the close of a UTC day. */

export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Parses `YYYY-MM-DD` strictly (a real calendar day) or returns null. */
export function parseDay(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && dayOf(date) === text ? text : null;
}

/** A key paid until D may be used through the whole of day D (UTC). */
export function isLapsed(paidUntil: string | null, now: Date): boolean {
  return paidUntil !== null && dayOf(now) > paidUntil;
}
