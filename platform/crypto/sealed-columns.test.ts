import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { LockMode, type Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import pg from 'pg';
import { createTestDatabase } from '../../test/support/database.js';
import { openOrm, type Orm } from '../db/orm.js';
import { LocalKeyProvider } from './key-provider.js';
import { Keyring } from './keyring.js';
import { reencryptColumns, sealLegacyColumns } from './reencrypt.js';
import { organizationIndex, sealedEntity } from './sealed-columns.js';

@Entity({ schema: 'public', tableName: 'sealed_things' })
class SealedThing {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  status!: string;

  @Property({ type: 'json', nullable: true, persist: false })
  secret?: { number: string; born: string } | null;

  @Property({ type: 'text', nullable: true, hidden: true })
  secretSealed?: string | null;

  @Property({ type: 'text', nullable: true, hidden: true })
  numberIndex?: string | null;
}

sealedEntity(SealedThing, {
  table: 'public.sealed_things',
  fields: [
    {
      plain: 'secret',
      sealed: 'secretSealed',
      column: 'secret_sealed',
      legacyColumn: 'secret_plaintext',
      indexes: [{ property: 'numberIndex', column: 'number_index', scope: 'thing-number', of: (s: { number: string }) => s.number }],
    },
  ],
});

const org = randomUUID();
const SECRET = { number: 'A12345678', born: '1984-02-29' };

describe('sealed columns (MikroORM subscriber)', () => {
  let orm: Orm;
  let pool: pg.Pool;
  let keyring: Keyring;
  const raw = async (id: string) =>
    (await pool.query<{ row: string }>(`select row_to_json(t)::text as row from sealed_things t where id = $1`, [id])).rows[0].row;

  beforeAll(async () => {
    const url = await createTestDatabase();
    pool = new pg.Pool({ connectionString: url, max: 3 });
    await pool.query(`create table sealed_things (id uuid primary key, organization_id uuid not null, status text not null,
      secret_plaintext jsonb, secret_sealed text, number_index text)`);
    keyring = new Keyring(pool, new LocalKeyProvider(randomBytes(32)));
    orm = await openOrm({ url, entities: [SealedThing], keyring, poolSize: 2 });
  });
  afterAll(async () => {
    await orm?.close();
    await pool?.end();
  });

  async function created(): Promise<string> {
    const em = orm.em.fork();
    const thing = em.create(SealedThing, { organizationId: org, status: 'NEW', secret: SECRET });
    await em.flush();
    return thing.id;
  }

  it('writes only ciphertext and a blind index, and reads the plaintext back', async () => {
    const id = await created();
    const row = await raw(id);
    expect(row).not.toContain(SECRET.number);
    expect(row).not.toContain(SECRET.born);
    expect(JSON.parse(row)).toMatchObject({
      secret_sealed: expect.stringMatching(/^enc:v1:/),
      number_index: await organizationIndex(keyring, org, 'thing-number', SECRET.number),
    });
    expect((await orm.em.fork().findOneOrFail(SealedThing, { id })).secret).toEqual(SECRET);
    // found by the index of the number, never by the number
    expect(
      await orm.em.fork().count(SealedThing, { numberIndex: await organizationIndex(keyring, org, 'thing-number', SECRET.number) }),
    ).toBe(1);
  });

  it('keeps the plaintext through a locked refresh, and a flush of other fields does not re-seal it', async () => {
    const id = await created();
    const em = orm.em.fork();
    const thing = await em.findOneOrFail(SealedThing, { id });
    const sealedBefore = thing.secretSealed;
    await em.transactional(async (tx) => {
      const locked = await tx.findOneOrFail(SealedThing, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      expect(locked.secret).toEqual(SECRET);
      locked.status = 'LOCKED';
    });
    expect(JSON.parse(await raw(id))).toMatchObject({ status: 'LOCKED', secret_sealed: sealedBefore });
  });

  it('takes a newer row a refresh brought over the stale plaintext; a change seals again; null clears it', async () => {
    const id = await created();
    const em = orm.em.fork();
    const thing = await em.findOneOrFail(SealedThing, { id });
    // another process changes it meanwhile
    const elsewhere = orm.em.fork();
    (await elsewhere.findOneOrFail(SealedThing, { id })).secret = { number: 'B7654321', born: '1990-01-01' };
    await elsewhere.flush();
    await em.findOneOrFail(SealedThing, { id }, { refresh: true });
    thing.status = 'SEEN';
    await em.flush();
    expect(thing.secret).toEqual({ number: 'B7654321', born: '1990-01-01' });

    thing.secret = { ...SECRET, born: '1984-03-01' };
    await em.flush();
    expect((await orm.em.fork().findOneOrFail(SealedThing, { id })).secret).toEqual({ ...SECRET, born: '1984-03-01' });
    thing.secret = null;
    await em.flush();
    expect(JSON.parse(await raw(id))).toMatchObject({ secret_sealed: null, number_index: null });
  });

  it('seals rows written before encryption, and re-encrypts under a rotated key', async () => {
    const id = randomUUID();
    await pool.query(`insert into sealed_things (id, organization_id, status, secret_plaintext) values ($1, $2, 'OLD', $3)`, [
      id,
      org,
      JSON.stringify(SECRET),
    ]);
    expect(await sealLegacyColumns(pool, keyring)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(await raw(id))).toMatchObject({
      secret_plaintext: null,
      secret_sealed: expect.stringMatching(/^enc:v1:/),
      number_index: await organizationIndex(keyring, org, 'thing-number', SECRET.number),
    });
    expect(await keyring.rotate(org)).toBe(2);
    expect(await reencryptColumns(pool, keyring, org)).toBeGreaterThanOrEqual(1);
    const { rows } = await pool.query(`select count(*)::int as n from sealed_things where secret_sealed not like 'enc:v2:%'`);
    expect(rows[0].n).toBe(0);
    expect((await orm.em.fork().findOneOrFail(SealedThing, { id })).secret).toEqual(SECRET);
  });
});
