import Module from 'node:module';
import { eventually, METRICS_TOKEN, startTestStack, type TestStack } from './support/stack.js';
import { AMINA, idCardBack, idCardFront, td1 } from './support/documents.js';
import { daysAgo, electricityBill } from './support/bills.js';
import { portrait } from './support/faces.js';
import { childProcesses, threadNames } from './support/process-info.js';

/** This process's children running the vision worker (the stack runs in this process, as every e2e suite's). */
const visionWorkers = () => childProcesses(process.pid, 'vision.worker');

/** Files of tesseract.js that Node loaded into this process (the stack's code is Node's own, test/support/stack.ts). */
const tesseractLoaded = () =>
  Object.keys((Module as unknown as { _cache: Record<string, unknown> })._cache).filter((file) => file.includes('/tesseract.js/'));

const form = (fields: Record<string, string>, files: Record<string, Buffer>) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, bytes] of Object.entries(files))
    body.append(name, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `${name}.jpg`);
  return body;
};

describe('documents and proofs of address are read in the vision worker processes, never in the API process', () => {
  let stack: TestStack;
  let h: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack();
    h = { 'x-api-key': (await stack.createClient({ name: 'vision processes' })).apiKey };
  });
  afterAll(() => stack?.stop());

  /** The verification service's metrics. */
  const metrics = async () =>
    (await fetch(`${new URL(stack.urls.verification!).origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  /** The count of vision requests of `operation` with `outcome` the verification service reports (every pair from the start). */
  const counted = async (operation: string, outcome: string) => {
    const line = new RegExp(
      `^vision_task_duration_seconds_count\\{[^}]*operation="${operation}",outcome="${outcome}"[^}]*\\} (\\d+)$`,
      'm',
    );
    const value = line.exec(await metrics())?.[1];
    if (value === undefined) throw new Error(`no vision_task_duration_seconds_count of ${operation} ${outcome}`);
    return Number(value);
  };
  const busyWorkers = async () => Number(/^vision_workers\{[^}]*state="busy"[^}]*\} (\d+)$/m.exec(await metrics())?.[1] ?? 0);
  const submitBill = async (userId: string) => {
    const bill = await electricityBill('AMINA WANJIKU', ['12 Moi Avenue', 'Nairobi 00100'], daysAgo(30));
    const res = await stack.rest(
      'POST',
      '/v1/verifications/address',
      form({ userId, documentType: 'UTILITY_BILL', country: 'KE' }, { document: bill }),
      h,
    );
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const decided = (kind: 'document' | 'address', id: string) =>
    eventually(async () => {
      const res = await stack.rest('GET', `/verifications/${kind}/${id}`, undefined, h);
      return ['PENDING', 'PROCESSING'].includes(res.body.status) ? null : res.body;
    }, 90_000);

  it('checks an ID card and a bill with no OCR thread and no Tesseract in this process: the workers read them', async () => {
    const [documentsRead, addressesRead] = [await counted('read_document_text', 'ok'), await counted('read_address', 'ok')];
    const card = await stack.rest(
      'POST',
      '/v1/verifications/document',
      form(
        { userId: 'vision-user-1', documentType: 'ID_CARD', documentCountry: 'KE' },
        { frontImage: await idCardFront(AMINA, await portrait('woman')), backImage: await idCardBack(td1(AMINA)) },
      ),
      h,
    );
    expect(card.status).toBe(201);
    const bill = await submitBill('vision-user-2');
    expect(await decided('document', card.body.id)).toMatchObject({ status: 'VERIFIED', checks: { mrzValid: true, faceFound: true } });
    expect(await decided('address', bill)).toMatchObject({ extractedData: { fullName: 'AMINA WANJIKU', issueDate: daysAgo(30) } });

    // both sides' text and zone, and the bill, were read by the vision workers…
    expect(await counted('read_document_text', 'ok')).toBe(documentsRead + 2);
    expect(await counted('read_address', 'ok')).toBe(addressesRead + 1);
    expect(visionWorkers().length).toBeGreaterThan(0);
    // …and none of it here: no worker thread (Tesseract reads in one) and no tesseract.js module
    expect(threadNames(process.pid)).not.toContain('WorkerThread');
    expect(tesseractLoaded()).toEqual([]);
  }, 180_000);

  it('retries a check whose worker was killed mid-read (503 to the job), and decides it in a new worker', async () => {
    const failed = await counted('read_address', 'unavailable');
    const id = await submitBill('vision-user-3');
    await eventually(async () => (await busyWorkers()) > 0, 30_000, 5);
    const killed = visionWorkers();
    expect(killed.length).toBeGreaterThan(0);
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    expect(await decided('address', id)).toMatchObject({ extractedData: { fullName: 'AMINA WANJIKU' } });
    expect(await counted('read_address', 'unavailable')).toBe(failed + 1);
    expect(visionWorkers().some((pid) => killed.includes(pid))).toBe(false);
  }, 180_000);
});
