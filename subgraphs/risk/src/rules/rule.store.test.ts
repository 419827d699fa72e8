import { orderedId } from './rule.store.js';

describe('orderedId', () => {
  it('makes version 7 UUIDs of the current millisecond that sort in the order they were made, also within one millisecond', () => {
    const before = Date.now();
    const ids = Array.from({ length: 5_000 }, () => orderedId());
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const millisecond = parseInt(ids[0].replace(/-/g, '').slice(0, 12), 16);
    expect(millisecond).toBeGreaterThanOrEqual(before);
    expect(millisecond).toBeLessThan(before + 1_000);
  });
});
