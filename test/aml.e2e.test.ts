import { createHmac } from 'node:crypto';
import pg from 'pg';
import { importSnapshot, type ListEntry } from '../screening/index.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';

const cert = selfSignedCertificate();

const person = (
  source: string,
  kind: ListEntry['kind'],
  externalId: string,
  names: string[],
  extra: Partial<ListEntry> = {},
): ListEntry => ({
  source,
  kind,
  externalId,
  entityType: 'INDIVIDUAL',
  names: names.map((full, i) => ({ full, type: i === 0 ? 'PRIMARY' : 'ALIAS' })),
  datesOfBirth: [],
  nationalities: [],
  documents: [],
  programs: [],
  ...extra,
});

// small fixture lists written for these tests
const SANCTIONS: ListEntry[] = [
  person('UN_SC', 'SANCTIONS', 'QDi.901', ['Ahmed Musa Bello', 'Abu Musa'], {
    datesOfBirth: ['1970-03-12'],
    nationalities: ['NG'],
    programs: ['ISIL (Da’esh) & Al-Qaida'],
    addedDate: '2019-05-02',
  }),
  person('UN_SC', 'SANCTIONS', 'QDi.902', ['Jean-Pierre Kabongo Mbeki'], {
    datesOfBirth: ['1965'],
    nationalities: ['CD'],
    programs: ['DRC'],
  }),
  { ...person('UN_SC', 'SANCTIONS', 'QDe.901', ['Sahel Trading Company']), entityType: 'ENTITY' },
];
const PEPS: ListEntry[] = [
  person('CUSTOM_PEPS', 'PEP', 'P-1', ['Amina Wanjiru Odhiambo'], { nationalities: ['KE'], programs: ['Member of Parliament'] }),
];

const MATCH_FIELDS =
  'id hit { listName source kind externalId entityType primaryName matchedName score listVersion programs addedDate } resolution resolvedBy resolutionReason resolvedAt explanation { nameScore tokens { query matched how score weight } qualifiers { kind effect detail } rules { rule factor detail } }';
const SCREENING_FIELDS = `id userId fullName dateOfBirth nationality status riskLevel matchCount listsChecked checkedAt resolvedAt batch { id } matches { ${MATCH_FIELDS} }`;
const USER_ERRORS = 'userErrors { field code message }';

describe('AML screening end to end', () => {
  let stack: TestStack;
  let pool: pg.Pool;
  let h: Record<string, string>;
  let clientId: string;

  const screen = (body: Record<string, unknown>, headers = h) => stack.rest('POST', '/screening/aml', body, headers);

  beforeAll(async () => {
    stack = await startTestStack({ WEBHOOK_RETRY_DELAYS: '1,1,1', WEBHOOK_TIMEOUT_MS: '3000' }, { webhookCa: cert.cert });
    pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    const client = await stack.createClient({ name: 'compliance' });
    h = { 'x-api-key': client.apiKey };
    clientId = client.id;
  });
  afterAll(async () => {
    await pool?.end();
    await stack?.stop();
  });

  it('refuses to screen (503) while no list is loaded, instead of answering CLEAR', async () => {
    const res = await screen({ userId: 'early', fullName: 'Anyone At All' });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBeTruthy();
  });

  describe('with lists loaded', () => {
    beforeAll(async () => {
      await importSnapshot(pool, 'UN_SC', SANCTIONS);
      await importSnapshot(pool, 'CUSTOM_PEPS', PEPS);
      // every process reloads its index on the snapshot notification
      await eventually(
        async () => (await screen({ userId: 'warmup', fullName: 'Amina Wanjiru Odhiambo' })).body.listsChecked?.length === 2,
      );
    });

    it('answers CLEAR with the lists checked for a name on no list', async () => {
      const res = await screen({ userId: 'kwame', fullName: 'Kwame Mensah', dateOfBirth: '1988-07-01', nationality: 'GH' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: expect.any(String),
        userId: 'kwame',
        status: 'CLEAR',
        riskLevel: 'LOW',
        matchCount: 0,
        matches: [],
        listsChecked: ['CUSTOM_PEPS', 'UN_SC'],
        listVersions: [
          { source: 'CUSTOM_PEPS', version: 'v1', kind: 'PEP' },
          { source: 'UN_SC', version: 'v1', kind: 'SANCTIONS' },
        ],
        matchThreshold: 0.85,
        lists: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA', 'LAW_ENFORCEMENT'],
      });
      expect(Date.parse(res.body.checkedAt)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('flags a sanctioned person with an explained match (HIGH)', async () => {
      const res = await screen({ userId: 'ahmed', fullName: 'Bello Ahmed Musa', dateOfBirth: '1970-03-12', nationality: 'NG' });
      expect(res.body).toMatchObject({ status: 'POTENTIAL_MATCH', riskLevel: 'HIGH', matchCount: 1 });
      const [match] = res.body.matches;
      expect(match).toMatchObject({
        listName: 'UN_SC',
        source: 'UN_SC',
        kind: 'SANCTIONS',
        externalId: 'QDi.901',
        primaryName: 'Ahmed Musa Bello',
        listVersion: 'v1',
        programs: ['ISIL (Da’esh) & Al-Qaida'],
        addedDate: '2019-05-02',
        resolution: 'OPEN',
        resolvedBy: null,
      });
      expect(match.score).toBeGreaterThanOrEqual(0.85);
      expect(match.score).toBeLessThanOrEqual(1);
      expect(match.explanation.tokens.length).toBeGreaterThan(0);
      expect(match.explanation.qualifiers.map((q: { kind: string }) => q.kind)).toContain('dateOfBirth');
      // the name is written family name first: the matcher says which rule lowered it
      expect(match.explanation.rules).toEqual([{ rule: 'orderSwap', factor: 0.95, detail: 'bello ahmed musa / ahmed musa bello' }]);
    });

    it('screens only the lists asked for; PEP matches are MEDIUM', async () => {
      const pepOnly = await screen({ userId: 'ahmed', fullName: 'Ahmed Musa Bello', lists: ['PEP'] });
      expect(pepOnly.body).toMatchObject({ status: 'CLEAR', listsChecked: ['CUSTOM_PEPS'], lists: ['PEP'] });
      const pep = await screen({ userId: 'amina', fullName: 'Amina Wanjiru Odhiambo', nationality: 'KE' });
      expect(pep.body).toMatchObject({ status: 'POTENTIAL_MATCH', riskLevel: 'MEDIUM', matches: [{ kind: 'PEP', externalId: 'P-1' }] });
      // entities are not matched against a person
      expect((await screen({ userId: 'sahel', fullName: 'Sahel Trading Company' })).body.status).toBe('CLEAR');
    });

    it('validates: 400 for missing fields, 422 for invalid values', async () => {
      const missing = await screen({ userId: 'v' });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toEqual(['fullName is required']);
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ dateOfBirth: '1990-13-01' }, /dateOfBirth must be a date/],
        [{ dateOfBirth: '2999-01-01' }, /future/],
        [{ nationality: 'ng' }, /uppercase ISO 3166-1 alpha-2/],
        [{ nationality: 'ZZ' }, /uppercase ISO 3166-1 alpha-2/],
        [{ matchThreshold: 1.5 }, /between 0 and 1/],
        [{ lists: [] }, /at least one/],
        [{ lists: ['GOSSIP'] }, /must be one of/],
        [{ fullName: '   ' }, /fullName must not be empty/],
      ];
      for (const [extra, message] of cases) {
        const res = await screen({ userId: 'v', fullName: 'Valid Name', ...extra });
        expect([extra, res.status]).toEqual([extra, 422]);
        expect(res.body.message.join(' ')).toMatch(message);
      }
      expect((await screen({ userId: 'v', fullName: 'Valid Name', matchThreshold: 'high' })).status).toBe(400);
    });

    it('reads by id and by user, per organization', async () => {
      const created = (await screen({ userId: 'reader', fullName: 'Jean-Pierre Kabongo Mbeki', nationality: 'CD' })).body;
      expect(created.status).toBe('POTENTIAL_MATCH');
      const clear = (await screen({ userId: 'reader', fullName: 'Kofi Annan Owusu', dateOfBirth: '1980-01-02' })).body;
      const got = await stack.rest('GET', `/v1/screening/aml/${created.id}`, undefined, h);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created);
      // the date of birth is stored sealed, and read back
      expect((await stack.rest('GET', `/v1/screening/aml/${clear.id}`, undefined, h)).body).toEqual(clear);
      expect(clear.dateOfBirth).toBe('1980-01-02');
      const { rows } = await pool.query(
        'select date_of_birth_sealed, date_of_birth_plaintext from verification.aml_screenings where id = $1',
        [clear.id],
      );
      expect(rows[0]).toEqual({ date_of_birth_sealed: expect.stringMatching(/^enc:v1:/), date_of_birth_plaintext: null });
      const list = await stack.rest('GET', '/screening/aml/user/reader?page=1&limit=1', undefined, h);
      expect(list.body).toMatchObject({ total: 2, page: 1, limit: 1 });
      expect(list.body.data).toHaveLength(1);
      const other = { 'x-api-key': (await stack.createClient({ name: 'other' })).apiKey };
      expect((await stack.rest('GET', `/screening/aml/${created.id}`, undefined, other)).status).toBe(404);
      expect((await stack.rest('GET', '/screening/aml/user/reader', undefined, other)).body.total).toBe(0);
      expect((await stack.rest('GET', '/screening/aml/nope', undefined, h)).status).toBe(404);
    });

    it('lets a reviewer clear false positives or confirm a match, with who and why, live on a subscription', async () => {
      const sub = stack.subscribe(
        `subscription { amlScreeningUpdatedForUser(userId: "reviewed") { type occurredAt node { id status riskLevel resolvedAt matches { resolution resolvedBy } } } }`,
        {},
        h,
      );
      await sub.ready;
      const flagged = (await screen({ userId: 'reviewed', fullName: 'Ahmed Musa Bello' })).body;
      const matchId = flagged.matches[0].id;
      const resolvePath = `/screening/aml/${flagged.id}/matches/${matchId}/resolve`;
      const cleared = await stack.rest(
        'POST',
        resolvePath,
        { resolution: 'FALSE_POSITIVE', resolvedBy: 'officer-7', reason: 'different date of birth on the passport' },
        h,
      );
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({
        status: 'CLEAR',
        riskLevel: 'LOW',
        matches: [{ resolution: 'FALSE_POSITIVE', resolvedBy: 'officer-7', resolutionReason: 'different date of birth on the passport' }],
      });
      expect(cleared.body.resolvedAt).toBeTruthy();
      const again = await stack.rest(
        'POST',
        resolvePath,
        { resolution: 'TRUE_POSITIVE', resolvedBy: 'officer-8', reason: 'second opinion' },
        h,
      );
      expect(again.status).toBe(409);
      const events = await sub.next(2);
      expect(events.map((e) => e.data.amlScreeningUpdatedForUser.node.status)).toEqual(['POTENTIAL_MATCH', 'CLEAR']);
      expect(events.map((e) => e.data.amlScreeningUpdatedForUser.type)).toEqual(['AML_FLAGGED', 'AML_CLEAR']);
      expect(Date.parse(events[1].data.amlScreeningUpdatedForUser.occurredAt)).toBeGreaterThan(Date.now() - 60_000);
      await sub.close();

      const second = (await screen({ userId: 'reviewed', fullName: 'Ahmed Musa Bello' })).body;
      const confirmed = await stack.gql(
        `mutation($s: ID!, $m: ID!) { resolveAmlMatch(input: { screeningId: $s, matchId: $m, resolution: TRUE_POSITIVE, resolvedBy: "mlro", reason: "same person, passport matches" }) { amlScreening { ${SCREENING_FIELDS} } ${USER_ERRORS} } }`,
        { s: second.id, m: second.matches[0].id },
        h,
      );
      expect(confirmed.body.data.resolveAmlMatch).toMatchObject({
        amlScreening: {
          status: 'CONFIRMED_MATCH',
          riskLevel: 'HIGH',
          matches: [{ resolution: 'TRUE_POSITIVE', resolvedBy: 'mlro', hit: { listName: 'UN_SC', kind: 'SANCTIONS' } }],
        },
        userErrors: [],
      });
      const bad = await stack.rest('POST', resolvePath, { resolution: 'MAYBE', resolvedBy: 'x', reason: 'y' }, h);
      expect(bad.status).toBe(422);
      expect((await stack.rest('POST', resolvePath, { resolution: 'TRUE_POSITIVE' }, h)).status).toBe(400);
      expect(
        (
          await stack.rest(
            'POST',
            `/screening/aml/${second.id}/matches/00000000-0000-0000-0000-000000000000/resolve`,
            { resolution: 'TRUE_POSITIVE', resolvedBy: 'x', reason: 'y' },
            h,
          )
        ).status,
      ).toBe(404);
    });

    describe('GraphQL', () => {
      const SCREEN = `mutation($input: ScreenAmlInput!) { screenAml(input: $input) { amlScreening { ${SCREENING_FIELDS} } ${USER_ERRORS} } }`;
      const RESOLVE = `mutation($input: ResolveAmlMatchInput!) { resolveAmlMatch(input: $input) { amlScreening { id status resolvedAt } ${USER_ERRORS} } }`;

      it('screenAml answers a payload with the shared hit type; invalid values are user errors naming the input field', async () => {
        const ok = await stack.gql(
          SCREEN,
          { input: { userId: 'gql', fullName: 'Bello Ahmed Musa', dateOfBirth: '1970-03-12', nationality: 'NG' } },
          h,
        );
        expect(ok.body.errors).toBeUndefined();
        expect(ok.body.data.screenAml.userErrors).toEqual([]);
        const screening = ok.body.data.screenAml.amlScreening;
        expect(screening).toMatchObject({
          userId: 'gql',
          dateOfBirth: '1970-03-12',
          nationality: 'NG',
          status: 'POTENTIAL_MATCH',
          batch: null,
        });
        const [match] = screening.matches;
        expect(match.hit).toMatchObject({
          listName: 'UN_SC',
          source: 'UN_SC',
          kind: 'SANCTIONS',
          externalId: 'QDi.901',
          entityType: 'INDIVIDUAL',
          primaryName: 'Ahmed Musa Bello',
          listVersion: 'v1',
        });
        // the graph's enums are SCREAMING_CASE; REST keeps the spec's values (exact, dateOfBirth)
        expect(match.explanation.tokens.map((t: { how: string }) => t.how)).toContain('EXACT');
        expect(match.explanation.qualifiers.map((q: { kind: string }) => q.kind)).toContain('DATE_OF_BIRTH');
        expect(match.explanation.rules.map((r: { rule: string }) => r.rule)).toEqual(['ORDER_SWAP']);
        const rest = (await stack.rest('GET', `/screening/aml/${screening.id}`, undefined, h)).body;
        expect(rest.matches[0].explanation.tokens.map((t: { how: string }) => t.how)).toContain('exact');
        expect(rest.matches[0].explanation.qualifiers.map((q: { kind: string }) => q.kind)).toContain('dateOfBirth');
        expect(rest.matches[0].explanation.rules.map((r: { rule: string }) => r.rule)).toEqual(['orderSwap']);
        expect(rest.matches[0]).toMatchObject({ id: match.id, listName: 'UN_SC', entityType: 'INDIVIDUAL', score: match.hit.score });
        expect(rest.batchId).toBeNull();

        const bad = await stack.gql(
          SCREEN,
          { input: { userId: 'gql', fullName: 'Valid Name', dateOfBirth: '1990-13-01', nationality: 'ng', matchThreshold: 1.5 } },
          h,
        );
        expect(bad.body.data.screenAml).toEqual({
          amlScreening: null,
          userErrors: [
            { field: ['input', 'dateOfBirth'], code: 'VALIDATION_FAILED', message: 'dateOfBirth must be a date in YYYY-MM-DD format' },
            {
              field: ['input', 'nationality'],
              code: 'VALIDATION_FAILED',
              message: 'nationality must be an uppercase ISO 3166-1 alpha-2 country code',
            },
            { field: ['input', 'matchThreshold'], code: 'VALIDATION_FAILED', message: 'matchThreshold must be between 0 and 1' },
          ],
        });
        const long = await stack.gql(SCREEN, { input: { userId: 'x'.repeat(256), fullName: 'Valid Name' } }, h);
        expect(long.body.data.screenAml.userErrors).toEqual([
          { field: ['input', 'userId'], code: 'VALIDATION_FAILED', message: 'userId must be at most 255 characters' },
        ]);
      });

      it('a lookup of a screening or batch that is not the caller’s is null', async () => {
        const mine = (await screen({ userId: 'lookup', fullName: 'Kwame Mensah' })).body;
        const other = { 'x-api-key': (await stack.createClient({ name: 'lookup other' })).apiKey };
        const query = `query($id: ID!) { amlScreening(id: $id) { id } amlBatch(id: $id) { id } }`;
        expect((await stack.gql(query, { id: mine.id }, other)).body).toEqual({ data: { amlScreening: null, amlBatch: null } });
        expect((await stack.gql(query, { id: 'not-an-id' }, h)).body).toEqual({ data: { amlScreening: null, amlBatch: null } });
        expect((await stack.gql(query, { id: mine.id }, h)).body.data.amlScreening).toEqual({ id: mine.id });
      });

      it('amlScreenings pages and filters an organization’s screenings; unresolved matches are the review queue', async () => {
        const q = { 'x-api-key': (await stack.createClient({ name: 'review queue' })).apiKey };
        const made = async (userId: string, fullName: string) => (await screen({ userId, fullName }, q)).body;
        const resolve = (s: { id: string; matches: Array<{ id: string }> }, resolution: string) =>
          stack.gql(
            RESOLVE,
            { input: { screeningId: s.id, matchId: s.matches[0].id, resolution, resolvedBy: 'mlro', reason: 'checked' } },
            q,
          );
        const clear = await made('q-clear', 'Kwame Mensah');
        const open = await made('q-open', 'Ahmed Musa Bello');
        const confirmed = await made('q-confirmed', 'Ahmed Musa Bello');
        const cleared = await made('q-cleared', 'Amina Wanjiru Odhiambo');
        expect((await resolve(confirmed, 'TRUE_POSITIVE')).body.data.resolveAmlMatch.amlScreening.status).toBe('CONFIRMED_MATCH');
        expect((await resolve(cleared, 'FALSE_POSITIVE')).body.data.resolveAmlMatch.amlScreening.status).toBe('CLEAR');

        const list = async (filter: Record<string, unknown>) =>
          (
            await stack.gql(
              `query($filter: AmlScreeningFilter) { amlScreenings(filter: $filter) { totalCount nodes { id userId } } }`,
              { filter },
              q,
            )
          ).body.data.amlScreenings;
        expect(await list({ hasUnresolvedMatches: true })).toEqual({ totalCount: 1, nodes: [{ id: open.id, userId: 'q-open' }] });
        expect((await list({ hasUnresolvedMatches: false })).nodes.map((s: { id: string }) => s.id)).toEqual([
          cleared.id,
          confirmed.id,
          clear.id,
        ]);
        expect((await list({ status: 'CLEAR' })).nodes.map((s: { id: string }) => s.id)).toEqual([cleared.id, clear.id]);
        expect((await list({ status: 'CONFIRMED_MATCH', userId: 'q-confirmed' })).totalCount).toBe(1);
        expect((await list({ userId: 'q-open', hasUnresolvedMatches: false })).totalCount).toBe(0);

        // a page at a time: every screening once, newest first
        const seen: string[] = [];
        for (let after: string | null = null; ;) {
          const page: any = (
            await stack.gql(
              `query($after: String) { amlScreenings(first: 1, after: $after) { totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`,
              { after },
              q,
            )
          ).body.data.amlScreenings;
          expect(page.totalCount).toBe(4);
          seen.push(...page.edges.map((e: { node: { id: string } }) => e.node.id));
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor;
        }
        expect(seen).toEqual([cleared.id, confirmed.id, open.id, clear.id]);

        // following one screening: the envelope says what happened
        const one = stack.subscribe(
          `subscription($id: ID!) { amlScreeningUpdated(id: $id) { type occurredAt node { id status riskLevel matches { resolution } } } }`,
          { id: open.id },
          q,
        );
        await one.ready;
        await resolve(open, 'FALSE_POSITIVE');
        // (its creation, committed before this subscriber came, may reach it too)
        const event = await eventually(async () => one.events.map((e) => e.data.amlScreeningUpdated).find((u) => u.type === 'AML_CLEAR'));
        expect(event).toMatchObject({
          node: { id: open.id, status: 'CLEAR', riskLevel: 'LOW', matches: [{ resolution: 'FALSE_POSITIVE' }] },
        });
        expect(Date.parse(event.occurredAt)).toBeGreaterThan(Date.now() - 60_000);
        await one.close();
        expect(await list({ hasUnresolvedMatches: true })).toEqual({ totalCount: 0, nodes: [] });
      });

      it('resolveAmlMatch: a missing screening or match and a second resolution are user errors without a field', async () => {
        const flagged = (await screen({ userId: 'resolve-errors', fullName: 'Ahmed Musa Bello' })).body;
        const input = (extra: Record<string, unknown>) => ({
          input: {
            screeningId: flagged.id,
            matchId: flagged.matches[0].id,
            resolution: 'FALSE_POSITIVE',
            resolvedBy: 'a',
            reason: 'b',
            ...extra,
          },
        });
        const missing = await stack.gql(RESOLVE, input({ screeningId: '00000000-0000-4000-8000-000000000000' }), h);
        expect(missing.body.data.resolveAmlMatch).toEqual({
          amlScreening: null,
          userErrors: [{ field: null, code: 'NOT_FOUND', message: 'AML screening 00000000-0000-4000-8000-000000000000 not found' }],
        });
        const noMatch = await stack.gql(RESOLVE, input({ matchId: '00000000-0000-4000-8000-000000000000' }), h);
        expect(noMatch.body.data.resolveAmlMatch.userErrors).toEqual([
          { field: null, code: 'NOT_FOUND', message: expect.stringMatching(/^Match of AML screening .* not found$/) },
        ]);
        const empty = await stack.gql(RESOLVE, input({ resolvedBy: '', reason: '' }), h);
        expect(empty.body.data.resolveAmlMatch.userErrors).toEqual([
          { field: ['input', 'resolvedBy'], code: 'VALIDATION_FAILED', message: 'resolvedBy must not be empty' },
          { field: ['input', 'reason'], code: 'VALIDATION_FAILED', message: 'reason must not be empty' },
        ]);
        expect((await stack.gql(RESOLVE, input({}), h)).body.data.resolveAmlMatch.userErrors).toEqual([]);
        const twice = await stack.gql(RESOLVE, input({ resolution: 'TRUE_POSITIVE' }), h);
        expect(twice.body.data.resolveAmlMatch).toEqual({
          amlScreening: null,
          userErrors: [{ field: null, code: 'CONFLICT', message: 'This match was already resolved as FALSE_POSITIVE' }],
        });
      });
    });

    it('delivers signed aml.flagged and aml.clear webhooks with the screening data', async () => {
      const receiver = await startReceiver(cert);
      const hook = await stack.rest(
        'POST',
        '/webhooks/configure',
        { clientId, callbackUrl: receiver.url, events: ['aml.flagged', 'aml.clear'] },
        h,
      );
      expect(hook.status).toBe(201);
      try {
        const flagged = (await screen({ userId: 'hooked', fullName: 'Ahmed Musa Bello' })).body;
        const clear = (await screen({ userId: 'hooked-clear', fullName: 'Kwame Mensah' })).body;
        expect(clear.status).toBe('CLEAR');
        const about = (id: string) => receiver.received.find((r) => JSON.parse(r.body).data.screeningId === id);
        await eventually(async () => about(flagged.id) && about(clear.id));
        expect(verifiedPayload(hook.body.secret, about(flagged.id)!)).toMatchObject({
          event: 'aml.flagged',
          data: {
            screeningId: flagged.id,
            userId: 'hooked',
            status: 'POTENTIAL_MATCH',
            riskLevel: 'HIGH',
            matchCount: 1,
            listsChecked: ['CUSTOM_PEPS', 'UN_SC'],
          },
        });
        expect(verifiedPayload(hook.body.secret, about(clear.id)!)).toMatchObject({
          event: 'aml.clear',
          data: { screeningId: clear.id, userId: 'hooked-clear', status: 'CLEAR', matchCount: 0 },
        });
      } finally {
        await stack.rest('DELETE', `/webhooks/${hook.body.id}`, undefined, h);
        await receiver.close();
      }
    });

    describe('batches', () => {
      it('accepts up to 100 subjects with 202, screens them in a job, calls back signed and fires aml.batch_complete', async () => {
        const receiver = await startReceiver(cert, (n) => (n === 0 ? 500 : 200));
        const hookReceiver = await startReceiver(cert);
        await stack.rest('POST', '/webhooks/configure', { clientId, callbackUrl: hookReceiver.url, events: ['aml.batch_complete'] }, h);
        const subjects = [
          { userId: 'b-1', fullName: 'Kwame Mensah' },
          { userId: 'b-2', fullName: 'Ahmed Musa Bello', dateOfBirth: '1970-03-12', extraField: 'dropped' },
          { userId: 'b-3', fullName: 'Fatou Ndiaye', nationality: 'SN' },
        ];
        const accepted = await stack.rest('POST', '/screening/aml/batch', { subjects, callbackUrl: receiver.url }, h);
        expect(accepted.status).toBe(202);
        expect(accepted.body).toMatchObject({
          batchId: accepted.body.id,
          status: 'PENDING',
          total: 3,
          callbackUrl: receiver.url,
          callbackSecret: expect.stringMatching(/^whsec_/),
        });
        const batchId = accepted.body.id;
        const sub = stack.subscribe(
          `subscription($id: ID!) { amlBatchUpdated(id: $id) { type node { id status processed total } } }`,
          { id: batchId },
          h,
        );

        const done = await eventually(async () => {
          const b = (await stack.rest('GET', `/screening/aml/batch/${batchId}`, undefined, h)).body;
          return b.status === 'COMPLETED' && b.callbackStatus === 'DELIVERED' ? b : null;
        }, 20_000);
        expect(done).toMatchObject({
          total: 3,
          processed: 3,
          clearCount: 2,
          flaggedCount: 1,
          failedCount: 0,
          callbackAttempts: 2,
          callbackLastStatusCode: 200,
        });
        expect(done.results.map((r: { userId: string; status: string }) => [r.userId, r.status])).toEqual([
          ['b-1', 'CLEAR'],
          ['b-2', 'POTENTIAL_MATCH'],
          ['b-3', 'CLEAR'],
        ]);
        const flaggedId = done.results[1].screeningId;
        expect((await stack.rest('GET', `/screening/aml/${flaggedId}`, undefined, h)).body).toMatchObject({
          batchId,
          status: 'POTENTIAL_MATCH',
          userId: 'b-2',
        });

        // the callback: retried after the 500, same signed body both times
        expect(receiver.received).toHaveLength(2);
        const [first, second] = receiver.received;
        expect(second.body).toBe(first.body);
        expect(second.headers['webhook-id']).toBe(`msg_${batchId}`);
        expect(second.headers['x-webhook-signature']).toBe(
          createHmac('sha256', accepted.body.callbackSecret).update(second.body).digest('hex'),
        );
        const payload = verifiedPayload(accepted.body.callbackSecret, second);
        expect(payload).toMatchObject({
          event: 'aml.batch_complete',
          data: { batchId, status: 'COMPLETED', total: 3, clear: 2, flagged: 1 },
        });
        expect(payload.data.results).toHaveLength(3);

        // the webhook of the organization gets the same event
        await eventually(async () => hookReceiver.received.some((r) => JSON.parse(r.body).data.batchId === batchId));
        // whatever the subscription caught after it was served: in lifecycle order, ending COMPLETED
        const seen = await eventually(async () => {
          const updates = sub.events.map((e) => e.data.amlBatchUpdated.node);
          return updates.at(-1)?.status === 'COMPLETED' ? updates : null;
        });
        const order = ['PENDING', 'PROCESSING', 'COMPLETED'];
        const ranks = seen.map((u: { status: string }) => order.indexOf(u.status));
        expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
        const processed = seen.map((u: { processed: number }) => u.processed);
        expect(processed).toEqual([...processed].sort((x, y) => x - y));
        expect(seen.at(-1)).toEqual({ id: batchId, status: 'COMPLETED', processed: 3, total: 3 });
        await sub.close();
        await receiver.close();
        await hookReceiver.close();
      });

      it('streams batch changes to a subscription, with the per-subject results', async () => {
        const receiver = await startReceiver(cert, (n) => (n === 0 ? 503 : 200));
        const subjects = Array.from({ length: 30 }, (_, i) => ({ userId: `p-${i}`, fullName: `Person Number ${i}` }));
        const accepted = (await stack.rest('POST', '/screening/aml/batch', { subjects, callbackUrl: receiver.url }, h)).body;
        const sub = stack.subscribe(
          `subscription($id: ID!) { amlBatchUpdated(id: $id) { type node { status processed callbackStatus subjects(first: 100) { totalCount nodes { userId status } } } } }`,
          { id: accepted.id },
          h,
        );
        // the callback is retried a second later: its events reach the subscription whatever the timing
        const delivered = await eventually(
          async () => sub.events.find((e) => e.data?.amlBatchUpdated?.node.callbackStatus === 'DELIVERED'),
          20_000,
        );
        expect(delivered.data.amlBatchUpdated.type).toBe('AML_BATCH_CALLBACK');
        const batch = delivered.data.amlBatchUpdated.node;
        expect(batch).toMatchObject({ status: 'COMPLETED', processed: 30, subjects: { totalCount: 30 } });
        expect(batch.subjects.nodes).toHaveLength(30);
        expect(batch.subjects.nodes.every((r: { status: string }) => r.status === 'CLEAR')).toBe(true);
        await sub.close();
        await receiver.close();
      });

      it('GraphQL: createAmlBatch answers the batch and its callback secret; its subjects page in submission order with their screenings', async () => {
        const CREATE = `mutation($input: CreateAmlBatchInput!) { createAmlBatch(input: $input) {
          amlBatch { id status total callbackUrl } callbackSecret ${USER_ERRORS} } }`;
        const receiver = await startReceiver(cert);
        const subjects = [
          { userId: 'g-1', fullName: 'Kwame Mensah' },
          { userId: 'g-2', fullName: 'Ahmed Musa Bello' },
          { userId: 'g-3', fullName: 'Fatou Ndiaye' },
        ];
        const created = await stack.gql(CREATE, { input: { subjects, callbackUrl: receiver.url } }, h);
        expect(created.body.errors).toBeUndefined();
        const payload = created.body.data.createAmlBatch;
        expect(payload).toEqual({
          amlBatch: { id: expect.any(String), status: 'PENDING', total: 3, callbackUrl: receiver.url },
          callbackSecret: expect.stringMatching(/^whsec_/),
          userErrors: [],
        });
        const id = payload.amlBatch.id;
        const SUBJECTS = `query($id: ID!, $after: String) { amlBatch(id: $id) { status subjects(first: 2, after: $after) {
          totalCount nodes { position userId status screening { id userId batch { id } } } pageInfo { hasNextPage endCursor } } } }`;
        await eventually(async () => (await stack.gql(SUBJECTS, { id, after: null }, h)).body.data.amlBatch.status === 'COMPLETED', 20_000);
        const first = (await stack.gql(SUBJECTS, { id, after: null }, h)).body.data.amlBatch.subjects;
        expect(first.totalCount).toBe(3);
        expect(first.pageInfo.hasNextPage).toBe(true);
        const second = (await stack.gql(SUBJECTS, { id, after: first.pageInfo.endCursor }, h)).body.data.amlBatch.subjects;
        expect(second.pageInfo.hasNextPage).toBe(false);
        const lines = [...first.nodes, ...second.nodes];
        expect(lines.map((l: { position: number; userId: string; status: string }) => [l.position, l.userId, l.status])).toEqual([
          [0, 'g-1', 'CLEAR'],
          [1, 'g-2', 'POTENTIAL_MATCH'],
          [2, 'g-3', 'CLEAR'],
        ]);
        for (const line of lines) expect(line.screening).toEqual({ id: expect.any(String), userId: line.userId, batch: { id } });
        // a cursor of another list is refused
        const foreign = await stack.gql(SUBJECTS, { id, after: 'bm90LWEtY3Vyc29y' }, h);
        expect(foreign.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
        await receiver.close();
      });

      it('GraphQL: createAmlBatch mistakes are user errors naming the input field', async () => {
        const CREATE = `mutation($input: CreateAmlBatchInput!) { createAmlBatch(input: $input) { amlBatch { id } callbackSecret ${USER_ERRORS} } }`;
        const errorsOf = async (input: Record<string, unknown>) => (await stack.gql(CREATE, { input }, h)).body.data.createAmlBatch;
        expect(await errorsOf({ subjects: [{ userId: 'a', fullName: 'A Name' }], callbackUrl: 'http://example.com/cb' })).toEqual({
          amlBatch: null,
          callbackSecret: null,
          userErrors: [{ field: ['input', 'callbackUrl'], code: 'VALIDATION_FAILED', message: 'callbackUrl must be an HTTPS URL' }],
        });
        expect((await errorsOf({ subjects: [] })).userErrors).toEqual([
          { field: ['input', 'subjects'], code: 'VALIDATION_FAILED', message: 'subjects must contain at least one subject' },
        ]);
        expect(
          (
            await errorsOf({
              subjects: [
                { userId: 'a', fullName: 'A Name' },
                { userId: 'x'.repeat(256), fullName: 'B Name' },
              ],
            })
          ).userErrors,
        ).toEqual([
          {
            field: ['input', 'subjects', '1', 'userId'],
            code: 'VALIDATION_FAILED',
            message: 'subjects.1.userId must be at most 255 characters',
          },
        ]);
        // the spec words a subject's value checks `subjects[0].dateOfBirth …`: the same path
        expect((await errorsOf({ subjects: [{ userId: 'b', fullName: 'B Name', dateOfBirth: '12/03/1970' }] })).userErrors).toEqual([
          {
            field: ['input', 'subjects', '0', 'dateOfBirth'],
            code: 'VALIDATION_FAILED',
            message: 'subjects[0].dateOfBirth must be a date in YYYY-MM-DD format',
          },
        ]);
      });

      it('validates the batch: 400 without subjects, 422 for too many, invalid subjects or a non-HTTPS callback', async () => {
        expect((await stack.rest('POST', '/screening/aml/batch', {}, h)).status).toBe(400);
        const tooMany = await stack.rest(
          'POST',
          '/screening/aml/batch',
          { subjects: Array.from({ length: 101 }, (_, i) => ({ userId: `u${i}`, fullName: 'Some Name' })) },
          h,
        );
        expect(tooMany.status).toBe(422);
        expect(tooMany.body.message).toContain('subjects must contain at most 100 subjects');
        const none = await stack.rest('POST', '/screening/aml/batch', { subjects: [] }, h);
        expect(none.status).toBe(422);
        const badSubject = await stack.rest(
          'POST',
          '/screening/aml/batch',
          {
            subjects: [
              { userId: 'a', fullName: 'A Name' },
              { userId: 'b', fullName: 'B Name', dateOfBirth: '12/03/1970' },
            ],
          },
          h,
        );
        expect(badSubject.status).toBe(422);
        expect(badSubject.body.message).toEqual(['subjects[1].dateOfBirth must be a date in YYYY-MM-DD format']);
        const missingName = await stack.rest('POST', '/screening/aml/batch', { subjects: [{ userId: 'a' }] }, h);
        expect(missingName.status).toBe(400);
        const http = await stack.rest(
          'POST',
          '/screening/aml/batch',
          { subjects: [{ userId: 'a', fullName: 'A Name' }], callbackUrl: 'http://example.com/cb' },
          h,
        );
        expect(http.status).toBe(422);
        expect(http.body.message).toEqual(['callbackUrl must be an HTTPS URL']);
        expect((await stack.rest('GET', '/screening/aml/batch/00000000-0000-0000-0000-000000000000', undefined, h)).status).toBe(404);
      });
    });

    it('needs the screening permission', async () => {
      const reader = { 'x-api-key': (await stack.createClient({ name: 'screening reader', permissions: ['screening:read'] })).apiKey };
      expect((await screen({ userId: 'x', fullName: 'Some Body' }, reader)).status).toBe(403);
      // a key that may only screen still gets the whole record, its batch (by id) included
      const writer = { 'x-api-key': (await stack.createClient({ name: 'screening writer', permissions: ['screening:write'] })).apiKey };
      const written = await screen({ userId: 'x', fullName: 'Some Body' }, writer);
      expect(written.status).toBe(200);
      expect(written.body).toMatchObject({ userId: 'x', status: 'CLEAR', batchId: null });
      const identityOnly = { 'x-api-key': (await stack.createClient({ name: 'identity', permissions: ['identity'] })).apiKey };
      expect((await stack.rest('GET', '/screening/aml/user/x', undefined, identityOnly)).status).toBe(403);
    });
  });
});
