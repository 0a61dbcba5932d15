/**
 * Which ERP tracking numbers are worth posting (spec 1, 4.7 rule 3). Carrier
 * numbers are 8 to 34 letters and digits (UPS 1Z + 16, FedEx 12 to 22
 * digits, USPS 20 to 22 digits or an S10 code like EC123456789US, DHL 10
 * digits, OnTrac C + 14 digits); ERPs also fill the field with placeholders
 * ("N/A", "PENDING", "0000000", "-"). The rule accepts 5 to 40 letters and
 * digits (inner hyphens allowed) with at least one digit and at least two
 * different characters, which every real number meets and placeholders do not.
 */
const SHAPE = /^[A-Z0-9](?:[A-Z0-9-]{3,38})[A-Z0-9]$/;

/** Spaces are how numbers get printed ("9400 1000 ..."), not part of them; carriers compare without case. */
export function normaliseTrackingNumber(raw: string): string {
  return raw.replace(/\s+/g, "").toUpperCase();
}

/** For a normalised number. */
export function isValidTrackingNumber(number: string): boolean {
  return SHAPE.test(number) && /\d/.test(number) && new Set(number.replace(/-/g, "")).size > 1;
}
