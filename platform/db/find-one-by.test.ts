import { randomUUID } from 'node:crypto';
import 'reflect-metadata';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import pg from 'pg';
import { createTestDatabase } from '../../test/support/database.js';
import { findOneBy } from './find-one-by.js';
import { openOrm, type Orm } from './orm.js';

@Entity({ schema: 'find_one_by', tableName: 'records' })
class SampleRecord {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'text' })
  organizationId!: string;

  @Property({ type: 'text' })
  status!: string;

  @Property({ type: 'double', nullable: true })
  score: number | null = null;

  @Property({ type: 'json' })
  steps: Array<{ name: string; done: boolean }> = [];

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

@Entity({ schema: 'find_one_by', tableName: 'children' })
class SampleChild {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @ManyToOne(() => SampleRecord)
  record!: SampleRecord;
}

let orm: Orm;
let pool: pg.Pool;
beforeAll(async () => {
  const url = await createTestDatabase({ empty: true });
  pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`create schema find_one_by;
    create table find_one_by.records (id uuid primary key, organization_id text not null, status text not null,
      score double precision, steps jsonb not null, created_at timestamptz not null);
    create table find_one_by.children (id uuid primary key, record_id uuid not null references find_one_by.records (id))`);
  orm = await openOrm({ url, entities: [SampleRecord, SampleChild], poolSize: 2 });
});
afterAll(async () => {
  await orm?.close();
  await pool?.end();
});

async function stored(organizationId = 'org-a'): Promise<SampleRecord> {
  const em = orm.em.fork();
  const record = em.create(SampleRecord, {
    id: randomUUID(),
    organizationId,
    status: 'PENDING',
    score: 0.875,
    steps: [{ name: 'document', done: true }],
    createdAt: new Date('2026-11-30T05:00:00.123Z'),
  });
  await em.flush();
  return record;
}

describe('findOneBy', () => {
  it('reads the record findOne reads, managed by the context', async () => {
    const record = await stored();
    const fast = orm.em.fork();
    const found = await findOneBy(fast, SampleRecord, { id: record.id, organizationId: 'org-a' });
    const expected = await orm.em.fork().findOne(SampleRecord, { id: record.id, organizationId: 'org-a' });
    expect(found).toBeInstanceOf(SampleRecord);
    expect({ ...found }).toEqual({ ...expected });
    expect(found!.createdAt).toEqual(new Date('2026-11-30T05:00:00.123Z'));
    // its columns are plain properties (no relations to propagate: no accessor defined per property on each entity)
    expect(Object.getOwnPropertyDescriptor(found, 'status')).toMatchObject({ value: 'PENDING', writable: true });
    // managed: a change is flushed like any loaded entity's, and nothing else is
    found!.status = 'VERIFIED';
    await fast.flush();
    const reread = await orm.em.fork().findOneOrFail(SampleRecord, { id: record.id });
    expect({ ...reread, status: 'PENDING' }).toEqual({ ...expected });
    expect(reread.status).toBe('VERIFIED');
  });

  it("answers null for another tenant's record and for none", async () => {
    const record = await stored();
    expect(await findOneBy(orm.em.fork(), SampleRecord, { id: record.id, organizationId: 'org-b' })).toBeNull();
    expect(await findOneBy(orm.em.fork(), SampleRecord, { id: randomUUID(), organizationId: 'org-a' })).toBeNull();
  });

  it('returns a record the context holds with its unflushed changes', async () => {
    const record = await stored();
    const em = orm.em.fork();
    const held = await em.findOneOrFail(SampleRecord, { id: record.id });
    held.status = 'CHANGED';
    const found = await findOneBy(em, SampleRecord, { id: record.id, organizationId: 'org-a' });
    expect(found).toBe(held);
    expect(found!.status).toBe('CHANGED');
  });

  it('leaves an entity with a relation to findOne', async () => {
    const record = await stored();
    const em = orm.em.fork();
    const child = em.create(SampleChild, { id: randomUUID(), record });
    await em.flush();
    const found = await findOneBy(orm.em.fork(), SampleChild, { id: child.id });
    expect(found?.record.id).toBe(record.id);
  });

  describe('reads arriving together', () => {
    /** The statements sent while `run` runs. */
    async function statements<T>(run: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
      const connection = orm.em.getConnection();
      const execute = connection.execute;
      const sql: string[] = [];
      connection.execute = function (this: typeof connection, ...args: Parameters<typeof execute>) {
        sql.push(String(args[0]));
        return execute.apply(this, args);
      } as typeof execute;
      try {
        return { result: await run(), sql };
      } finally {
        connection.execute = execute;
      }
    }

    it('share one statement, each read getting its own record, managed by its own context', async () => {
      const [a1, a2, b1] = [await stored(), await stored(), await stored('org-b')];
      const contexts = Array.from({ length: 6 }, () => orm.em.fork());
      const { result, sql } = await statements(() =>
        Promise.all([
          findOneBy(contexts[0], SampleRecord, { id: a1.id, organizationId: 'org-a' }),
          findOneBy(contexts[1], SampleRecord, { id: a2.id, organizationId: 'org-a' }),
          findOneBy(contexts[2], SampleRecord, { id: b1.id, organizationId: 'org-b' }),
          findOneBy(contexts[3], SampleRecord, { id: b1.id, organizationId: 'org-a' }), // another tenant's
          findOneBy(contexts[4], SampleRecord, { id: randomUUID(), organizationId: 'org-a' }), // none
          findOneBy(contexts[5], SampleRecord, { id: a1.id, organizationId: 'org-a' }), // the same record again
        ]),
      );
      expect(sql).toHaveLength(1);
      expect(result.map((r) => r?.id ?? null)).toEqual([a1.id, a2.id, b1.id, null, null, a1.id]);
      expect(result[2]!.organizationId).toBe('org-b');
      expect(result[0]).not.toBe(result[5]);
      result.forEach((record, i) => {
        if (record) expect(contexts[i].getUnitOfWork().getById(SampleRecord, record.id)).toBe(record);
      });
      expect({ ...result[0] }).toEqual({ ...(await orm.em.fork().findOne(SampleRecord, { id: a1.id })) });
    });

    it('a read the shared statement fails for meets its own error; the others their records', async () => {
      const record = await stored();
      const { result, sql } = await statements(() =>
        Promise.allSettled([
          findOneBy(orm.em.fork(), SampleRecord, { id: record.id, organizationId: 'org-a' }),
          findOneBy(orm.em.fork(), SampleRecord, { id: 'not-a-uuid', organizationId: 'org-a' }),
        ]),
      );
      expect(sql).toHaveLength(3); // the shared statement, then each alone
      expect(result[0]).toMatchObject({ status: 'fulfilled', value: { id: record.id } });
      expect(result[1]).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/uuid/) }) });
    });

    it('a read in a transaction, or of an id not written lower-case, goes alone', async () => {
      const record = await stored();
      const { result, sql } = await statements(() =>
        Promise.all([
          findOneBy(orm.em.fork(), SampleRecord, { id: record.id.toUpperCase(), organizationId: 'org-a' }),
          orm.em.fork().transactional((em) => findOneBy(em, SampleRecord, { id: record.id, organizationId: 'org-a' })),
          findOneBy(orm.em.fork(), SampleRecord, { id: record.id, organizationId: 'org-a' }),
        ]),
      );
      expect(result.map((r) => r?.id)).toEqual([record.id, record.id, record.id]);
      expect(sql.filter((s) => s.startsWith('select "id"'))).toHaveLength(3);
      expect(sql.filter((s) => / in \(/.test(s))).toHaveLength(0);
    });
  });
});
