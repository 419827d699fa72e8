import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { recordAudit, SYSTEM_ACTOR, verifyChain } from '../platform/audit/audit.js';
import { LocalKeyProvider } from '../platform/crypto/key-provider.js';
import { Keyring } from '../platform/crypto/keyring.js';
import { freePort, startEmbeddedPostgres } from '../platform/db/embedded-postgres.js';
import { openOrm } from '../platform/db/orm.js';
import { migrateDatabase } from '../cli/migrations.js';
import { createLogger } from '../platform/logger.js';
import { MobileMoneyVerification } from '../subgraphs/verification/src/mobile-money/mobile-money.entity.js';
import { Writable } from 'node:stream';
import { PLATFORM_ENTITIES } from '../platform/entities.js';

const ROWS = 2_000;
const AUDIT_ENTRIES = 400;
const ms = (t: number) => `${t.toFixed(1)} ms`;
const time = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

/**
 * What personal-data protection costs (issue 16), each figure beside its unprotected twin in one
 * run: loading rows whose column is sealed (open on load) against the same rows without the
 * subscriber; a file encrypted and decrypted against copied; audit entries appended to one
 * organization's chain (serialized by its lock) against spread over eight; a log line through the
 * redacting logger against plain pino's work on the same object.
 */
export async function run(): Promise<void> {
  let db: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
  try {
    let url = process.env.DATABASE_URL;
    if (!url) {
      db = await startEmbeddedPostgres({
        dir: path.join(tmpdir(), `afri-bench-protection-${process.pid}`),
        port: await freePort(),
        persistent: false,
      });
      url = db.url;
    }
    await migrateDatabase(url);
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // the embedded server stopping at the end closes what is left: not a failure
    pool.on('error', () => undefined);
    const keyring = new Keyring(pool, new LocalKeyProvider(randomBytes(32)));
    const organizationId = randomUUID();

    // sealed columns: write ROWS mobile money verifications, then load them with and without opening
    const sealedOrm = await openOrm({ url, entities: [...PLATFORM_ENTITIES, MobileMoneyVerification], keyring, poolSize: 4 });
    const plainOrm = await openOrm({ url, entities: [...PLATFORM_ENTITIES, MobileMoneyVerification], poolSize: 4 });
    const write = await time(async () => {
      const em = sealedOrm.em.fork();
      for (let i = 0; i < ROWS; i++) {
        em.create(MobileMoneyVerification, {
          organizationId,
          environment: 'test',
          userId: `u-${i}`,
          phoneNumber: `+2332412${String(i).padStart(5, '0')}`,
          provider: 'MTN_MOMO',
          country: 'GH',
          status: 'PENDING',
          adapter: 'sandbox',
        });
      }
      await em.flush();
    });
    const load = (orm: typeof sealedOrm) => time(() => orm.em.fork().find(MobileMoneyVerification, { organizationId }));
    await load(sealedOrm);
    await load(plainOrm);
    const [sealedLoad, plainLoad] = [await load(sealedOrm), await load(plainOrm)];
    console.log(
      `sealed column: ${ROWS} rows written (sealed) in ${ms(write)}; loaded and opened ${ms(sealedLoad)}, loaded without opening ${ms(plainLoad)}`,
    );
    console.log(`  ratio open/plain load: ${(sealedLoad / plainLoad).toFixed(2)}`);

    // files: one 1 MB image encrypted and decrypted, against a copy
    const image = randomBytes(1_000_000);
    const keys = await keyring.keysOf(organizationId);
    const rounds = 50;
    const crypt = await time(async () => {
      for (let i = 0; i < rounds; i++) keys.decryptFile(keys.encryptFile(image));
    });
    const copy = await time(async () => {
      for (let i = 0; i < rounds; i++) Buffer.from(Buffer.from(image));
    });
    console.log(
      `files: 1 MB encrypted + decrypted ${ms(crypt / rounds)} each (${((rounds * 1_000) / crypt).toFixed(0)} MB/s); copied twice ${ms(copy / rounds)}`,
    );

    // audit: AUDIT_ENTRIES appended by 8 writers to one organization's chain, then to 8 chains
    const append = (organizations: string[]) =>
      time(() =>
        Promise.all(
          Array.from({ length: 8 }, (_, w) =>
            (async () => {
              for (let i = w; i < AUDIT_ENTRIES; i += 8) {
                await recordAudit(pool, {
                  organizationId: organizations[w % organizations.length],
                  environment: 'live',
                  action: 'file.viewed',
                  actor: SYSTEM_ACTOR,
                  resourceType: 'document',
                  resourceId: randomUUID(),
                  userId: `u-${i}`,
                  details: { role: 'front' },
                });
              }
            })(),
          ),
        ),
      );
    const one = randomUUID();
    const oneChain = await append([one]);
    const eightChains = await append(Array.from({ length: 8 }, () => randomUUID()));
    const verified = await time(() => verifyChain(pool, one));
    console.log(
      `audit: ${AUDIT_ENTRIES} entries by 8 writers, one chain ${ms(oneChain)} (${((AUDIT_ENTRIES * 1000) / oneChain).toFixed(0)}/s), eight chains ${ms(eightChains)} (${((AUDIT_ENTRIES * 1000) / eightChains).toFixed(0)}/s); ratio ${(oneChain / eightChains).toFixed(2)}`,
    );
    console.log(`  verifying the ${AUDIT_ENTRIES}-entry chain: ${ms(verified)}`);

    // logs: the same line through the redacting logger and through a logger with redaction stripped
    const sink = () => new Writable({ write: (_c, _e, done) => done() });
    const line = {
      verificationId: randomUUID(),
      status: 'VERIFIED',
      subject: { fullName: 'Amina Grace Wanjiku', phoneNumber: '+254712345678' },
    };
    const redacting = createLogger('bench', 'info', sink());
    const { pino } = await import('pino');
    const plain = pino({ level: 'info' }, sink());
    const lines = 20_000;
    const logTime = async (logger: { info(o: object, m: string): void }) =>
      time(async () => {
        for (let i = 0; i < lines; i++) logger.info(line, 'document checked for amina@example.com');
      });
    await logTime(redacting);
    const [redacted, unredacted] = [await logTime(redacting), await logTime(plain)];
    console.log(
      `logs: ${lines} lines redacted ${ms(redacted)} (${((redacted * 1000) / lines).toFixed(1)} µs/line), plain pino ${ms(unredacted)}; ratio ${(redacted / unredacted).toFixed(2)}`,
    );

    await sealedOrm.close();
    await plainOrm.close();
    await pool.end();
  } finally {
    await db?.stop();
  }
}
