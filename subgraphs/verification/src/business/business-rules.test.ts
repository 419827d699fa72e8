import { businessProgress, INITIAL_STEPS, isInactiveStatus, sameCompanyName, type BusinessFacts } from './business-rules.js';

const found = (legalName = 'Kilimo Fresh Produce Limited', status: string | null = 'Active') =>
  ({ outcome: 'FOUND', legalName, status }) as const;

const facts = (over: Partial<BusinessFacts> = {}): BusinessFacts => ({
  declaredName: 'Kilimo Fresh Produce Limited',
  registry: { outcome: 'PENDING' },
  directors: 0,
  ubos: 0,
  screenings: [],
  ...over,
});
/** Directors and UBOs declared and screened clear, the registry found the company under its name. */
const complete = (over: Partial<BusinessFacts> = {}) =>
  facts({ registry: found(), directors: 2, ubos: 1, screenings: ['CLEAR', 'CLEAR', 'CLEAR'], ...over });

describe('business verification rules', () => {
  describe('happy path', () => {
    it('starts as the spec shows: PENDING, registration PROCESSING, the other steps PENDING', () => {
      expect(businessProgress(facts())).toEqual({ status: 'PENDING', steps: INITIAL_STEPS, reasons: [] });
    });

    it('VERIFIED once the registry found it under its name and every declared person screened clear', () => {
      expect(businessProgress(complete())).toEqual({
        status: 'VERIFIED',
        steps: { registration: 'VERIFIED', directors: 'VERIFIED', ubo: 'VERIFIED', amlScreening: 'CLEAR' },
        reasons: [],
      });
    });

    it('steps move independently: people declared before the registry answered', () => {
      const waiting = businessProgress(complete({ registry: { outcome: 'PENDING' } }));
      expect(waiting).toMatchObject({
        status: 'PROCESSING',
        steps: { registration: 'PROCESSING', directors: 'VERIFIED', ubo: 'VERIFIED', amlScreening: 'CLEAR' },
      });
      const registryFirst = businessProgress(facts({ registry: found() }));
      expect(registryFirst).toMatchObject({ status: 'PENDING', steps: { registration: 'VERIFIED', directors: 'PENDING', ubo: 'PENDING' } });
    });

    it('stays PENDING (awaiting data) until both directors and UBOs are declared', () => {
      expect(businessProgress(complete({ ubos: 0, screenings: ['CLEAR', 'CLEAR'] })).status).toBe('PENDING');
      expect(businessProgress(complete({ directors: 0, screenings: ['CLEAR'] })).status).toBe('PENDING');
    });

    it('accepts the registry’s spelling of the same name (case, legal form, punctuation)', () => {
      expect(businessProgress(complete({ registry: found('KILIMO FRESH PRODUCE LTD') })).status).toBe('VERIFIED');
      expect(sameCompanyName('Acme Trading Ltd', 'ACME TRADING LIMITED')).toBe(true);
      expect(sameCompanyName('Société Générale Côte d’Ivoire SA', 'SOCIETE GENERALE COTE D IVOIRE')).toBe(true);
    });
  });

  describe('exit conditions', () => {
    it('registry not found → REJECTED at once, whatever else is declared', () => {
      expect(businessProgress(facts({ registry: { outcome: 'NOT_FOUND' } }))).toMatchObject({
        status: 'REJECTED',
        steps: { registration: 'NOT_FOUND' },
        reasons: ['REGISTRATION_NOT_FOUND'],
      });
      expect(businessProgress(complete({ registry: { outcome: 'NOT_FOUND' } })).status).toBe('REJECTED');
    });

    it('a company the registry lists as no longer trading → REJECTED', () => {
      for (const status of ['Dissolved', 'Struck Off', 'In Liquidation', 'Deregistered', 'inactive', 'Wound up']) {
        expect(businessProgress(complete({ registry: found(undefined, status) }))).toMatchObject({
          status: 'REJECTED',
          steps: { registration: 'INACTIVE' },
          reasons: ['REGISTRY_STATUS_INACTIVE'],
        });
      }
      expect(isInactiveStatus('Active')).toBe(false);
      expect(isInactiveStatus('Registered')).toBe(false);
      expect(isInactiveStatus(null)).toBe(false);
    });

    it('a screening hit on a director or UBO → MANUAL_REVIEW', () => {
      expect(businessProgress(complete({ screenings: ['CLEAR', 'POTENTIAL_MATCH', 'CLEAR'] }))).toMatchObject({
        status: 'MANUAL_REVIEW',
        steps: { amlScreening: 'FLAGGED' },
        reasons: ['AML_POTENTIAL_MATCH'],
      });
    });

    it('the registry’s name differing from the declared name → MANUAL_REVIEW', () => {
      expect(businessProgress(complete({ registry: found('Sandbox Mismatch Holdings Limited') }))).toMatchObject({
        status: 'MANUAL_REVIEW',
        steps: { registration: 'NAME_MISMATCH' },
        reasons: ['REGISTRY_NAME_MISMATCH'],
      });
    });

    it('every reason for a reviewer is listed', () => {
      const both = businessProgress(complete({ registry: found('Other Name Holdings'), screenings: ['POTENTIAL_MATCH'] }));
      expect(both).toMatchObject({ status: 'MANUAL_REVIEW', reasons: ['REGISTRY_NAME_MISMATCH', 'AML_POTENTIAL_MATCH'] });
    });

    it('a reason found before the data is complete waits in PENDING, shown', () => {
      const early = businessProgress(facts({ registry: found(), directors: 1, screenings: ['POTENTIAL_MATCH'] }));
      expect(early).toMatchObject({ status: 'PENDING', reasons: ['AML_POTENTIAL_MATCH'], steps: { amlScreening: 'FLAGGED' } });
    });
  });

  describe('errors of the sources', () => {
    it('registry unavailable with a retry scheduled → the step says UNAVAILABLE, the business keeps PROCESSING', () => {
      expect(businessProgress(complete({ registry: { outcome: 'UNAVAILABLE', retrying: true } }))).toMatchObject({
        status: 'PROCESSING',
        steps: { registration: 'UNAVAILABLE' },
        reasons: [],
      });
      expect(businessProgress(facts({ registry: { outcome: 'UNAVAILABLE', retrying: true } })).status).toBe('PENDING');
    });

    it('registry still unavailable after every retry → MANUAL_REVIEW (a reviewer checks the registry)', () => {
      expect(businessProgress(complete({ registry: { outcome: 'UNAVAILABLE', retrying: false } }))).toMatchObject({
        status: 'MANUAL_REVIEW',
        steps: { registration: 'UNAVAILABLE' },
        reasons: ['REGISTRY_UNAVAILABLE'],
      });
    });

    it('no screening list loaded → the step says UNAVAILABLE and a reviewer decides', () => {
      expect(businessProgress(complete({ screenings: ['UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE'] }))).toMatchObject({
        status: 'MANUAL_REVIEW',
        steps: { amlScreening: 'UNAVAILABLE' },
        reasons: ['AML_LISTS_NOT_LOADED'],
      });
    });
  });
});
