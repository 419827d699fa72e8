import 'reflect-metadata';
import { buildSchema } from 'graphql';
import { fieldOf } from './user-errors.js';

const schema = buildSchema(`
  input SendInput { to: String, recipients: [RecipientInput!], channels: [String!] }
  input RecipientInput { to: String }
  type Query { ok: Boolean }
  type Mutation { send(input: SendInput!, dryRun: Boolean): Boolean }
`);
const send = schema.getMutationType()!.getFields().send;

describe('fieldOf: the input field a validation message names', () => {
  it.each([
    ['to must be an e-mail address or an E.164 number', ['input', 'to']],
    ['recipients.3.to: recipient r9 not found', ['input', 'recipients', '3', 'to']],
    ['recipients[3].to: recipient r9 not found', ['input', 'recipients', '3', 'to']],
    ['channels must be among: email, sms, push (unknown: fax)', ['input', 'channels']],
    ['dryRun must be a boolean', ['dryRun']],
    ['Template welcome not found', null],
    ['Give id or userId', null],
  ])('%s', (message, field) => {
    expect(fieldOf(message, send)).toEqual(field);
  });
});
