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

async function stored(): Promise<SampleRecord> {
  const em = orm.em.fork();
  const record = em.create(SampleRecord, {
    id: randomUUID(),
    organizationId: 'org-a',
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
});
