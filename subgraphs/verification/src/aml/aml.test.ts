import { AML_BATCH_LIFECYCLE, AML_SCREENING_LIFECYCLE, amlRiskLevel, resolveHit, reviewTrigger } from './aml.lifecycle.js';

const transition = AML_SCREENING_LIFECYCLE.move.bind(AML_SCREENING_LIFECYCLE);
import { normaliseAmlRequest, validateAmlRequest } from './aml.validation.js';
import { dateOfBirthError } from '../screened-person/screened-person.js';

describe('AML lifecycle table', () => {
  it('starts CLEAR or POTENTIAL_MATCH with the spec events', () => {
    expect(transition(null, 'screened.clear')).toMatchObject({ to: 'CLEAR', event: 'aml.clear' });
    expect(transition(null, 'screened.matches')).toMatchObject({ to: 'POTENTIAL_MATCH', event: 'aml.flagged' });
  });

  it('confirms on a true positive, clears when every match is a false positive', () => {
    expect(reviewTrigger('POTENTIAL_MATCH', ['TRUE_POSITIVE', 'OPEN'])).toBe('review.true_positive');
    expect(reviewTrigger('POTENTIAL_MATCH', ['FALSE_POSITIVE', 'FALSE_POSITIVE'])).toBe('review.all_false_positive');
    expect(reviewTrigger('POTENTIAL_MATCH', ['FALSE_POSITIVE', 'OPEN'])).toBe('review.recorded');
    expect(reviewTrigger('CONFIRMED_MATCH', ['TRUE_POSITIVE', 'FALSE_POSITIVE'])).toBe('review.recorded');
    expect(transition('POTENTIAL_MATCH', 'review.true_positive')).toMatchObject({ to: 'CONFIRMED_MATCH', event: 'aml.flagged' });
    expect(transition('POTENTIAL_MATCH', 'review.all_false_positive')).toMatchObject({ to: 'CLEAR', event: 'aml.clear' });
    expect(transition('CONFIRMED_MATCH', 'review.recorded')).toMatchObject({ to: null, event: 'aml.match_resolved' });
  });

  it('refuses moves outside the table (409)', () => {
    expect(() => transition('CLEAR', 'review.true_positive')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => transition('CONFIRMED_MATCH', 'review.all_false_positive')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => resolveHit('FALSE_POSITIVE', 'TRUE_POSITIVE')).toThrow(/already resolved as FALSE_POSITIVE/);
    expect(resolveHit('OPEN', 'TRUE_POSITIVE')).toBe('TRUE_POSITIVE');
  });

  it('moves a batch PENDING → PROCESSING → COMPLETED, then reports its callback', () => {
    expect(AML_BATCH_LIFECYCLE.move(null, 'submitted')).toMatchObject({ to: 'PENDING', event: 'aml.batch_created' });
    expect(AML_BATCH_LIFECYCLE.next('PENDING', 'subject.screened')).toBe('PROCESSING');
    expect(AML_BATCH_LIFECYCLE.next('PROCESSING', 'subject.screened')).toBe('PROCESSING');
    expect(AML_BATCH_LIFECYCLE.move('PROCESSING', 'completed')).toMatchObject({ to: 'COMPLETED', event: 'aml.batch_complete' });
    expect(AML_BATCH_LIFECYCLE.next('COMPLETED', 'callback.attempted')).toBe('COMPLETED');
    expect(() => AML_BATCH_LIFECYCLE.move('COMPLETED', 'subject.screened')).toThrow(
      'Cannot apply subject.screened to a batch in status COMPLETED (allowed from: PENDING, PROCESSING)',
    );
    expect(() => AML_BATCH_LIFECYCLE.move('PENDING', 'callback.attempted')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });

  it('derives the risk level from the status and the kinds still standing', () => {
    expect(amlRiskLevel('CLEAR', ['SANCTIONS'])).toBe('LOW');
    expect(amlRiskLevel('POTENTIAL_MATCH', ['PEP', 'ADVERSE_MEDIA'])).toBe('MEDIUM');
    expect(amlRiskLevel('POTENTIAL_MATCH', ['PEP', 'LAW_ENFORCEMENT'])).toBe('HIGH');
    expect(amlRiskLevel('CONFIRMED_MATCH', ['PEP'])).toBe('HIGH');
  });
});

describe('AML request validation', () => {
  const ok = { userId: 'u', fullName: 'Fatou Ndiaye' };

  it('accepts a minimal and a full record, and applies the defaults', () => {
    expect(validateAmlRequest(ok)).toEqual([]);
    expect(
      validateAmlRequest({
        ...ok,
        dateOfBirth: '1970-02-28',
        nationality: 'SN',
        documentNumber: 'A123',
        matchThreshold: 0.9,
        lists: ['PEP'],
      }),
    ).toEqual([]);
    expect(normaliseAmlRequest({ userId: ' u ', fullName: '  Fatou   Ndiaye ' })).toEqual({
      userId: 'u',
      fullName: 'Fatou Ndiaye',
      dateOfBirth: null,
      nationality: null,
      documentNumber: null,
      matchThreshold: 0.85,
      lists: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA', 'LAW_ENFORCEMENT'],
    });
  });

  it('accepts assigned ISO country codes only', () => {
    for (const ok of ['NG', 'CI', 'CD', 'XK', 'SS'])
      expect([ok, validateAmlRequest({ userId: 'u', fullName: 'A B', nationality: ok })]).toEqual([ok, []]);
    for (const bad of ['ZZ', 'EU', 'UK', 'YU', 'ng', 'NGA', 'QQ'])
      expect(validateAmlRequest({ userId: 'u', fullName: 'A B', nationality: bad })).toHaveLength(1);
  });

  it('checks dates of birth as calendar dates', () => {
    expect(dateOfBirthError('1970-02-28')).toBeNull();
    expect(dateOfBirthError('1970-02-30')).toMatch(/YYYY-MM-DD/);
    expect(dateOfBirthError('70-02-28')).toMatch(/YYYY-MM-DD/);
    expect(dateOfBirthError('2100-01-01', new Date('2026-01-01'))).toMatch(/future/);
  });

  it('names every invalid field, with a prefix for batch subjects', () => {
    expect(
      validateAmlRequest({ userId: '', fullName: '123', nationality: 'Nigeria', matchThreshold: -1, lists: [] }, 'subjects[2].'),
    ).toEqual([
      'subjects[2].userId must not be empty',
      'subjects[2].fullName must contain letters',
      'subjects[2].nationality must be an uppercase ISO 3166-1 alpha-2 country code',
      'subjects[2].matchThreshold must be between 0 and 1',
      'subjects[2].lists must contain at least one of: SANCTIONS, PEP, ADVERSE_MEDIA, LAW_ENFORCEMENT',
    ]);
  });
});
