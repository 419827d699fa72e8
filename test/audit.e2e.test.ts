import pg from 'pg';
import { ADMIN_SECRET, eventually, startTestStack, type TestStack } from './support/stack.js';
import { listIndividuals } from './support/lists.js';
import { idCardForm } from './support/documents.js';
import { portrait } from './support/faces.js';

const ENTRY = `id occurredAt action actor { kind clientId clientName sessionUserId } reviewer resourceType resourceId userId details hash previousHash`;

describe('audit trail (append-only, hash-chained per organization)', () => {
  let stack: TestStack;
  let db: pg.Pool;
  let desk: { apiKey: string; id: string; organizationId: string };
  let h: Record<string, string>;
  let documentId: string;
  let identityId: string;

  beforeAll(async () => {
    stack = await startTestStack();
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    desk = await stack.createClient({ name: 'review desk' });
    h = { 'x-api-key': desk.apiKey };
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  const entries = async (filter: Record<string, unknown> | null, headers = h) => {
    const res = await stack.gql(
      `query($filter: AuditEntryFilter) { auditEntries(filter: $filter, first: 50) { totalCount nodes { ${ENTRY} } } }`,
      { filter },
      headers,
    );
    return res.body;
  };
  const verify = async () => {
    const res = await stack.gql(`query { auditChainVerification { valid entriesChecked firstBrokenEntry { id reason } } }`, {}, h);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.auditChainVerification;
  };

  it('records who reviewed, viewed a document image, changed a rule and revoked a key; lists them per organization and per user', async () => {
    // a reviewer's decision
    const identity = await stack.rest('POST', '/v1/verifications/identity', { userId: 'audit-user-1', tier: 'BASIC' }, h);
    identityId = identity.body.id;
    const reviewed = await stack.rest(
      'POST',
      `/v1/verifications/identity/${identityId}/review`,
      { decision: 'VERIFIED', reviewedBy: 'officer-7', reviewNotes: 'documents match' },
      h,
    );
    expect(reviewed.status).toBe(200);
    // a document image viewed
    const form = await idCardForm('audit-user-1', await portrait('woman'));
    const document = await stack.rest('POST', '/v1/verifications/document', form, h);
    documentId = document.body.id;
    expect((await stack.rest('GET', document.body.frontImageUrl, undefined, h)).status).toBe(200);
    // a rule changed (a risk key of the same organization)
    const risk = await stack.createClient({ name: 'risk desk', service: 'risk', organizationId: desk.organizationId });
    const rule = await stack.rest(
      'PUT',
      '/v1/rules/audit_large_amount',
      { condition: 'txn.amount > 100000.0', action: 'review', severity: 'high' },
      { authorization: `Bearer ${risk.apiKey}` },
    );
    expect(rule.status).toBe(201);
    // a key revoked by the operator
    const spare = await stack.createClient({ name: 'spare key', organizationId: desk.organizationId });
    expect((await stack.rest('DELETE', `/admin/api-clients/${spare.id}`, undefined, { 'x-admin-secret': ADMIN_SECRET })).status).toBe(200);

    const ofUser = await entries({ userId: 'audit-user-1' });
    expect(ofUser.errors).toBeUndefined();
    expect(ofUser.data.auditEntries.totalCount).toBe(2);
    expect(ofUser.data.auditEntries.nodes).toEqual([
      expect.objectContaining({
        action: 'FILE_VIEWED',
        actor: { kind: 'CLIENT', clientId: desk.id, clientName: 'review desk', sessionUserId: null },
        resourceType: 'document',
        resourceId: documentId,
        userId: 'audit-user-1',
        details: { fileId: document.body.frontImageUrl.split('/').pop(), role: 'front' },
      }),
      expect.objectContaining({
        action: 'IDENTITY_VERIFICATION_REVIEWED',
        actor: expect.objectContaining({ kind: 'CLIENT', clientId: desk.id }),
        reviewer: 'officer-7',
        resourceType: 'identity_verification',
        resourceId: identityId,
        details: { decision: 'VERIFIED', status: 'VERIFIED' },
      }),
    ]);
    const all = (await entries(null)).data.auditEntries.nodes;
    expect(all.map((e: { action: string }) => e.action)).toEqual([
      'API_CLIENT_REVOKED',
      'RISK_RULE_CHANGED',
      'FILE_VIEWED',
      'IDENTITY_VERIFICATION_REVIEWED',
    ]);
    expect(all[0]).toMatchObject({ actor: { kind: 'ADMIN', clientId: null }, resourceId: spare.id });
    expect(all[1]).toMatchObject({
      actor: { kind: 'CLIENT', clientId: risk.id, clientName: 'risk desk' },
      resourceId: 'audit_large_amount',
      details: { change: 'created', version: 1 },
    });
    // each entry carries the hash of the one before (newest first here)
    for (let i = 0; i < all.length - 1; i++) expect(all[i].previousHash).toBe(all[i + 1].hash);
    expect(all.at(-1).previousHash).toBe('0'.repeat(64));

    // REST: the same trail, paged
    const page = await stack.rest('GET', '/v1/audit/entries?userId=audit-user-1&limit=1', undefined, h);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 2, page: 1, limit: 1, data: [expect.objectContaining({ action: 'FILE_VIEWED' })] });
    const byAction = await stack.rest('GET', '/audit/entries?action=RISK_RULE_CHANGED', undefined, h);
    expect(byAction.body.data).toEqual([expect.objectContaining({ resourceId: 'audit_large_amount' })]);

    // another organization sees none of it; a key without the audit permission is refused
    const stranger = { 'x-api-key': (await stack.createClient({ name: 'stranger' })).apiKey };
    expect((await entries(null, stranger)).data.auditEntries.totalCount).toBe(0);
    const narrow = {
      'x-api-key': (await stack.createClient({ name: 'narrow', organizationId: desk.organizationId, permissions: ['identity'] })).apiKey,
    };
    expect((await entries(null, narrow)).errors?.[0].extensions.code).toBe('FORBIDDEN');
  }, 60_000);

  it('records a resolved AML match and a reviewed watchlist alert, with who resolved them', async () => {
    await listIndividuals(stack.databaseUrl, ['Baraka Odhiambo Otieno']);
    const screened = await eventually(async () => {
      const res = await stack.rest('POST', '/screening/aml', { userId: 'audit-user-2', fullName: 'Baraka Odhiambo Otieno' }, h);
      return res.body.status === 'POTENTIAL_MATCH' ? res.body : null;
    });
    const resolved = await stack.rest(
      'POST',
      `/screening/aml/${screened.id}/matches/${screened.matches[0].id}/resolve`,
      { resolution: 'FALSE_POSITIVE', resolvedBy: 'mlro-2', reason: 'another date of birth' },
      h,
    );
    expect(resolved.status).toBe(200);
    await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId: 'audit-user-2', fullName: 'Baraka Odhiambo Otieno' }, h);
    const alert = await eventually(async () => {
      const res = await stack.rest('GET', '/monitoring/watchlist/alerts?userId=audit-user-2', undefined, h);
      return res.body.data?.[0] ?? null;
    });
    const reviewed = await stack.rest(
      'POST',
      `/monitoring/watchlist/alerts/${alert.id}/review`,
      { status: 'DISMISSED', reviewedBy: 'analyst-3', note: 'namesake' },
      h,
    );
    expect(reviewed.status).toBe(200);
    const { nodes } = (await entries({ userId: 'audit-user-2' })).data.auditEntries;
    expect(nodes).toEqual([
      expect.objectContaining({
        action: 'WATCHLIST_ALERT_REVIEWED',
        reviewer: 'analyst-3',
        resourceType: 'watchlist_alert',
        resourceId: alert.id,
        details: { status: 'DISMISSED' },
      }),
      expect.objectContaining({
        action: 'AML_MATCH_RESOLVED',
        reviewer: 'mlro-2',
        resourceType: 'aml_screening',
        resourceId: screened.id,
        details: { matchId: screened.matches[0].id, resolution: 'FALSE_POSITIVE', status: 'CLEAR' },
      }),
    ]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    for (const statement of [
      `update platform.audit_entries set reviewer = 'someone else'`,
      `delete from platform.audit_entries`,
      `truncate platform.audit_entries`,
    ]) {
      await expect(db.query(statement)).rejects.toThrow(/append-only/);
    }
    expect((await verify()).valid).toBe(true);
  });

  it('detects an entry edited behind the trigger’s back: the chain check names the first broken entry', async () => {
    const before = await verify();
    expect(before).toEqual({ valid: true, entriesChecked: 6, firstBrokenEntry: null });
    const { rows } = await db.query<{ seq: string }>(
      `select seq from platform.audit_entries where organization_id = $1 and action = 'identity_verification.reviewed'`,
      [desk.organizationId],
    );
    // someone with the table owner's rights switches the guard off and rewrites history
    await db.query(`alter table platform.audit_entries disable trigger audit_entries_append_only`);
    try {
      await db.query(`update platform.audit_entries set reviewer = 'officer-9' where organization_id = $1 and seq = $2`, [
        desk.organizationId,
        rows[0].seq,
      ]);
    } finally {
      await db.query(`alter table platform.audit_entries enable trigger audit_entries_append_only`);
    }
    expect(await verify()).toEqual({
      valid: false,
      entriesChecked: 1,
      firstBrokenEntry: { id: rows[0].seq, reason: 'its content does not match its hash' },
    });
    const viaRest = await stack.rest('GET', '/v1/audit/verify', undefined, h);
    expect(viaRest.body).toMatchObject({ valid: false, firstBrokenEntry: { id: rows[0].seq } });
  });
});
