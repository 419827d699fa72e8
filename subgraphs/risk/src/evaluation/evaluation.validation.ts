/**
 * The transaction the engine evaluates: the raw caller input (GraphQL or REST body), checked and
 * normalised. The GraphQL input types themselves are in evaluation.inputs.ts.
 */
import { isIP } from 'node:net';
import { badInput } from '../../../../platform/errors.js';

/** A transaction as the caller sent it (GraphQL input; REST body mapped by the adapter). */
export interface TransactionInput {
  transactionId?: unknown;
  amount?: unknown;
  currency?: unknown;
  sender?: unknown;
  receiver?: unknown;
  channel?: unknown;
  metadata?: unknown;
}

export interface Location {
  lat: number;
  lng: number;
}

/** A validated transaction. */
export interface Transaction {
  transactionId: string;
  amount: number;
  currency: string;
  sender: string;
  receiver: string;
  channel: string | null;
  metadata: Record<string, unknown>;
  deviceId: string | null;
  ip: string | null;
  location: Location | null;
  senderName: string | null;
  receiverName: string | null;
  /** Sandbox only: the score to return. */
  mockScore: number | null;
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const MAX_AMOUNT = 1e13;
const MAX_METADATA_BYTES = 8_192;
const MAX_METADATA_KEYS = 50;
// printable, no control characters, no leading/trailing space
const IDENTIFIER = /^(?! )[^\p{Cc}]{1,128}(?<! )$/u;
const CHANNEL = /^[A-Za-z0-9_.-]{1,32}$/;

/**
 * Validates every field and returns the normalised transaction, or throws one BAD_USER_INPUT
 * (400, as Part A's error table says for any invalid body) listing every problem.
 */
export function validateTransaction(input: TransactionInput): Transaction {
  const errors: string[] = [];
  const identifier = (field: 'transactionId' | 'sender' | 'receiver'): string => {
    const v = input[field];
    if (v === undefined || v === null) errors.push(`${field} is required`);
    else if (typeof v !== 'string') errors.push(`${field} must be a string`);
    else if (!IDENTIFIER.test(v)) errors.push(`${field} must be 1–128 printable characters without leading or trailing spaces`);
    return typeof v === 'string' ? v : '';
  };
  const transactionId = identifier('transactionId');
  const sender = identifier('sender');
  const receiver = identifier('receiver');
  if (sender && receiver && sender === receiver) errors.push('receiver must differ from sender');

  const amount = input.amount;
  if (amount === undefined || amount === null) errors.push('amount is required');
  else if (typeof amount !== 'number' || !Number.isFinite(amount)) errors.push('amount must be a number');
  else if (amount <= 0) errors.push('amount must be greater than 0');
  else if (amount > MAX_AMOUNT) errors.push(`amount must be at most ${MAX_AMOUNT}`);

  const currency = input.currency;
  if (currency === undefined || currency === null) errors.push('currency is required');
  else if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency) || !CURRENCIES.has(currency)) {
    errors.push('currency must be an ISO 4217 code in upper case (e.g. KES, NGN, GHS)');
  }

  let channel: string | null = null;
  if (input.channel !== undefined && input.channel !== null) {
    if (typeof input.channel !== 'string' || !CHANNEL.test(input.channel))
      errors.push('channel must be 1–32 letters, digits, "_", "-" or "."');
    else channel = input.channel;
  }

  const meta = validateMetadata(input.metadata, errors);
  if (errors.length) throw badInput(errors);
  return {
    transactionId,
    amount: amount as number,
    currency: currency as string,
    sender,
    receiver,
    channel,
    ...meta,
  };
}

function validateMetadata(
  raw: unknown,
  errors: string[],
): Pick<Transaction, 'metadata' | 'deviceId' | 'ip' | 'location' | 'senderName' | 'receiverName' | 'mockScore'> {
  const empty = { metadata: {}, deviceId: null, ip: null, location: null, senderName: null, receiverName: null, mockScore: null };
  if (raw === undefined || raw === null) return empty;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push('metadata must be an object');
    return empty;
  }
  const m = raw as Record<string, unknown>;
  if (Object.keys(m).length > MAX_METADATA_KEYS) errors.push(`metadata must have at most ${MAX_METADATA_KEYS} keys`);
  if (Buffer.byteLength(JSON.stringify(m)) > MAX_METADATA_BYTES)
    errors.push(`metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON`);

  const text = (key: string, max: number): string | null => {
    const v = m[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string' || !v.trim() || v.length > max) {
      errors.push(`metadata.${key} must be a non-empty string of at most ${max} characters`);
      return null;
    }
    return v;
  };
  const deviceId = text('device_id', 128);
  const senderName = text('sender_name', 200);
  const receiverName = text('receiver_name', 200);

  let ip: string | null = null;
  if (m.ip !== undefined && m.ip !== null) {
    if (typeof m.ip !== 'string' || !isIP(m.ip)) errors.push('metadata.ip must be an IPv4 or IPv6 address');
    else ip = m.ip.toLowerCase();
  }

  let location: Location | null = null;
  if (m.location !== undefined && m.location !== null) {
    const loc = m.location as Record<string, unknown>;
    if (typeof loc !== 'object' || Array.isArray(loc)) errors.push('metadata.location must be an object with lat and lng');
    else {
      const { lat, lng } = loc;
      const before = errors.length;
      if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90)
        errors.push('metadata.location.lat must be a number between -90 and 90');
      if (typeof lng !== 'number' || !Number.isFinite(lng) || lng < -180 || lng > 180)
        errors.push('metadata.location.lng must be a number between -180 and 180');
      if (errors.length === before) location = { lat: lat as number, lng: lng as number };
    }
  }

  let mockScore: number | null = null;
  if (m.mock_score !== undefined && m.mock_score !== null) {
    if (typeof m.mock_score !== 'number' || !Number.isInteger(m.mock_score) || m.mock_score < 0 || m.mock_score > 100) {
      errors.push('metadata.mock_score must be an integer between 0 and 100');
    } else mockScore = m.mock_score;
  }
  return { metadata: m, deviceId, ip, location, senderName, receiverName, mockScore };
}
