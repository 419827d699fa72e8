import { mapResponse, upperCased } from './mapping.js';

describe('response mapping', () => {
  it('gives references as ids, flattens objects in place, lower-cases enums, keeping the key order', () => {
    const body = {
      id: 's1',
      replacedBy: { id: 's2' },
      restartedFrom: null,
      action: 'REVIEW',
      matches: [{ id: 'm1', hit: { listName: 'UN_SC', score: 0.9 }, resolution: 'OPEN', channels: ['EMAIL', 'SMS'] }],
    };
    expect(
      mapResponse(body, { ids: ['replacedBy', 'restartedFrom'], flatten: ['matches.hit'], lowercase: ['action', 'matches.channels'] }),
    ).toEqual({
      id: 's1',
      replacedBy: 's2',
      restartedFrom: null,
      action: 'review',
      matches: [{ id: 'm1', listName: 'UN_SC', score: 0.9, resolution: 'OPEN', channels: ['email', 'sms'] }],
    });
    const flat = mapResponse(body, { flatten: ['matches.hit'] }) as { matches: Array<Record<string, unknown>> };
    expect(Object.keys(flat.matches[0])).toEqual(['id', 'listName', 'score', 'resolution', 'channels']);
  });

  it('upper-cases REST enum values for GraphQL, leaving other values for GraphQL to judge', () => {
    expect(upperCased('review')).toBe('REVIEW');
    expect(upperCased(['email', 'sms'])).toEqual(['EMAIL', 'SMS']);
    expect(upperCased(42)).toBe(42);
  });
});
