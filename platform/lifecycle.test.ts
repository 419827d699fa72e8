import { Lifecycle, deriveStatus, deriveStatusSql, type StatusRule } from './lifecycle.js';

type Door = 'OPEN' | 'CLOSED' | 'LOCKED';
const DOOR = new Lifecycle<Door, 'built' | 'close' | 'lock' | 'knock' | 'open'>(
  'a door',
  ['OPEN', 'CLOSED', 'LOCKED'],
  [
    { from: [null], trigger: 'built', to: 'CLOSED', event: 'door.built' },
    { from: ['OPEN'], trigger: 'close', to: 'CLOSED', event: 'door.closed' },
    { from: ['CLOSED'], trigger: 'lock', to: 'LOCKED' },
    { from: ['CLOSED', 'LOCKED'], trigger: 'knock', to: null, event: 'door.knocked' },
    { from: ['CLOSED'], trigger: 'open', to: 'OPEN', event: 'door.opened' },
  ],
);

describe('Lifecycle', () => {
  it('answers the move, the next status and the event of a trigger', () => {
    expect(DOOR.move(null, 'built')).toMatchObject({ to: 'CLOSED', event: 'door.built' });
    expect(DOOR.next('CLOSED', 'lock')).toBe('LOCKED');
    expect(DOOR.next('LOCKED', 'knock')).toBe('LOCKED');
    expect(DOOR.fire('CLOSED', 'knock')).toEqual({ status: 'CLOSED', event: 'door.knocked' });
    expect(DOOR.eventOf('open')).toBe('door.opened');
  });

  it('gives SQL updates their guard and target', () => {
    expect(DOOR.sources('knock')).toEqual(['CLOSED', 'LOCKED']);
    expect(DOOR.sources('built')).toEqual([]);
    expect(DOOR.target('open')).toBe('OPEN');
    expect(() => DOOR.target('knock')).toThrow(/no single target/);
  });

  it('refuses moves outside the table with a CONFLICT', () => {
    expect(DOOR.allows('LOCKED', 'open')).toBe(false);
    expect(() => DOOR.move('LOCKED', 'open')).toThrow(
      expect.objectContaining({ code: 'CONFLICT', message: 'Cannot apply open to a door in status LOCKED (allowed from: CLOSED)' }),
    );
    expect(() => DOOR.move(null, 'open')).toThrow('Cannot apply open to a door in status none (allowed from: CLOSED)');
    expect(() => DOOR.fire('CLOSED', 'lock')).toThrow(/fires no event/);
  });

  it('refuses a table naming statuses it does not have', () => {
    expect(() => new Lifecycle<Door, 'x'>('a door', ['OPEN'], [{ from: ['OPEN'], trigger: 'x', to: 'CLOSED' }])).toThrow(
      'a door lifecycle: x names unknown statuses CLOSED',
    );
  });
});

describe('status rules', () => {
  const RULES: StatusRule<'busy' | 'done' | 'mixed' | 'lost', 'wait' | 'ok' | 'ko'>[] = [
    { status: 'busy', when: 'any', of: ['wait'] },
    { status: 'done', when: 'all', of: ['ok'] },
    { status: 'mixed', when: 'any', of: ['ok'] },
    { status: 'lost', when: 'otherwise' },
  ];

  it('takes the first rule that holds', () => {
    expect(deriveStatus(RULES, ['ok', 'wait'])).toBe('busy');
    expect(deriveStatus(RULES, ['ok', 'ok'])).toBe('done');
    expect(deriveStatus(RULES, ['ok', 'ko'])).toBe('mixed');
    expect(deriveStatus(RULES, ['ko'])).toBe('lost');
    expect(() => deriveStatus(RULES.slice(0, 1), ['ko'])).toThrow(/otherwise/);
  });

  it('writes the same rules as one SQL case over an aggregate', () => {
    expect(deriveStatusSql(RULES, 'p.state')).toBe(
      "case when bool_or(p.state in ('wait')) then 'busy' when bool_and(p.state in ('ok')) then 'done' " +
        "when bool_or(p.state in ('ok')) then 'mixed' else 'lost' end",
    );
  });
});
