import 'reflect-metadata';
import { ALERT_LIFECYCLE, SUBSCRIPTION_LIFECYCLE, diffMatches } from './watchlist.lifecycle.js';

const subscriptionTransition = SUBSCRIPTION_LIFECYCLE.move.bind(SUBSCRIPTION_LIFECYCLE);
const alertTransition = ALERT_LIFECYCLE.move.bind(ALERT_LIFECYCLE);
import { validateSubscription } from './watchlist.service.js';

describe('watchlist lifecycle', () => {
  it('follows the spec table: subscribe → ACTIVE, ACTIVE → CANCELLED once', () => {
    expect(subscriptionTransition(null, 'subscribe')).toMatchObject({ to: 'ACTIVE' });
    expect(subscriptionTransition('ACTIVE', 'unsubscribe')).toMatchObject({ to: 'CANCELLED', event: 'watchlist.unsubscribed' });
    expect(() => subscriptionTransition('CANCELLED', 'unsubscribe')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });

  it('opens alerts and lets only OPEN ones be reviewed or dismissed', () => {
    expect(alertTransition(null, 'detected')).toMatchObject({ to: 'OPEN', event: 'watchlist.alert' });
    expect(alertTransition('OPEN', 'review').to).toBe('REVIEWED');
    expect(alertTransition('OPEN', 'dismiss').to).toBe('DISMISSED');
    expect(() => alertTransition('REVIEWED', 'dismiss')).toThrow(
      'Cannot apply dismiss to a watchlist alert in status REVIEWED (allowed from: OPEN)',
    );
    expect(() => alertTransition('DISMISSED', 'review')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    // a match leaving the lists clears its alert whatever the review said
    expect(alertTransition('DISMISSED', 'cleared')).toMatchObject({ to: null, event: 'watchlist.clear' });
  });
});

describe('scan diff', () => {
  const m = (source: string, externalId: string) => ({ source, externalId });

  it('splits hits into new, kept and vanished matches by source and list id', () => {
    const current = [m('UN_SC', '1'), m('OFAC_SDN', '1'), m('UN_SC', '2')];
    const hits = [m('UN_SC', '1'), m('UN_SC', '3'), m('OFAC_SDN', '2')];
    const { added, kept, vanished } = diffMatches(hits, current);
    expect(added).toEqual([m('UN_SC', '3'), m('OFAC_SDN', '2')]);
    expect(kept).toEqual([[m('UN_SC', '1'), m('UN_SC', '1')]]);
    expect(vanished).toEqual([m('OFAC_SDN', '1'), m('UN_SC', '2')]);
  });

  it('finds nothing to do when nothing changed', () => {
    const same = [m('UN_SC', '1')];
    expect(diffMatches(same, same)).toEqual({ added: [], kept: [[same[0], same[0]]], vanished: [] });
    expect(diffMatches([], [])).toEqual({ added: [], kept: [], vanished: [] });
  });
});

describe('subscription validation', () => {
  it('accepts both forms and names invalid values', () => {
    expect(validateSubscription({ userId: 'u', fullName: 'Fatou Ndiaye', lists: ['PEP'], nationality: 'SN' })).toEqual([]);
    expect(validateSubscription({ userId: 'u', fullName: 'Fatou Ndiaye', country: 'SN' })).toEqual([]);
    expect(
      validateSubscription({ userId: ' ', fullName: '42', dateOfBirth: '1990-02-30', country: 'Senegal', lists: ['LAW_ENFORCEMENT'] }),
    ).toEqual([
      'userId must not be empty',
      'fullName must contain letters',
      'dateOfBirth must be a date in YYYY-MM-DD format',
      'country must be an uppercase ISO 3166-1 alpha-2 country code',
      'lists[0] must be one of: SANCTIONS, PEP, ADVERSE_MEDIA',
    ]);
  });
});
