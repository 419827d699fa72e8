import { timingSafeEqual, createHash } from 'node:crypto';
import express from 'express';
import { UUID_PATTERN } from '../../../../platform/ids.js';
import type { NotifyShared } from '../notify.shared.js';
import { AFRICASTALKING, parseDeliveryReport } from '../channels/sms-africastalking.provider.js';
import { AFRICASTALKING_VOICE, sayXml } from '../channels/voice-africastalking.provider.js';
import { applyDeliveryReport, findDeliveryToRender, type DeliveryLookup } from './delivery.report.js';
import { OPEN_PIXEL_PATH } from './tracking.url.js';

export const CALLBACK_TOKEN_HEADER = 'x-callback-token';

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** A delivery report may overtake the commit of the send it reports: look again for this long. */
const REPORT_WAIT_MS = 2_000;

const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** Africa's Talking can only call a URL (?token=); a proxy in front may send the header instead. */
function callbackAllowed(req: express.Request, res: express.Response, expected: string | undefined, refused: string): boolean {
  if (!expected) {
    res.status(403).json({ error: refused });
    return false;
  }
  const given = req.get(CALLBACK_TOKEN_HEADER) ?? String(req.query.token ?? '');
  if (!sameSecret(given, expected)) {
    res.status(401).json({ error: 'invalid callback token' });
    return false;
  }
  return true;
}

/** Applies a report; one that overtook the commit of the send it reports is tried again for REPORT_WAIT_MS. */
async function applyWhenRecorded(
  deps: NotifyShared,
  lookup: DeliveryLookup,
  trigger: 'report.delivered' | 'report.failed',
  reason?: string,
): Promise<'changed' | 'unchanged' | 'not_found'> {
  const deadline = Date.now() + REPORT_WAIT_MS;
  let result = await applyDeliveryReport(deps.pool, lookup, trigger, reason);
  while (result === 'not_found' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    result = await applyDeliveryReport(deps.pool, lookup, trigger, reason);
  }
  return result;
}

/**
 * HTTP routes the notify service serves itself (public, no API key):
 * - `GET /track/open/{token}.gif`: the email open pixel → channel `opened`, `openedAt` (first open);
 *   always answers the GIF, whatever the token.
 * - `POST /callbacks/sms/africastalking?token=SMS_CALLBACK_TOKEN` (or header `X-Callback-Token`;
 *   refused while the token is not configured): Africa's Talking delivery
 *   reports (form fields `id`, `status`, `failureReason`…) → `delivered` or `failed`.
 * - `POST /callbacks/voice/africastalking?token=VOICE_CALLBACK_TOKEN` (likewise): Africa's Talking's
 *   voice callback. An answered call (`isActive=1`) is `delivered` and is answered with the XML that
 *   says the delivery's text; a call that ended without being answered (`isActive=0`) is `failed`.
 */
export function trackingRoutes(app: express.Express, deps: NotifyShared): void {
  const { logger } = deps;
  app.get(OPEN_PIXEL_PATH, async (req, res) => {
    const token = String(req.params.token).replace(/\.gif$/i, '');
    if (UUID_PATTERN.test(token)) {
      await applyDeliveryReport(deps.pool, { trackingToken: token }, 'tracking.opened').catch((err) =>
        logger.error({ err }, 'could not record an email open'),
      );
    }
    res
      .set({ 'content-type': 'image/gif', 'cache-control': 'no-store, no-cache, must-revalidate, private', pragma: 'no-cache' })
      .end(PIXEL);
  });

  app.post(
    '/callbacks/sms/africastalking',
    express.urlencoded({ extended: false, limit: '16kb' }),
    express.json({ limit: '16kb' }),
    async (req, res) => {
      if (!callbackAllowed(req, res, deps.config.SMS_CALLBACK_TOKEN, 'delivery reports are refused until SMS_CALLBACK_TOKEN is set'))
        return;
      const report = parseDeliveryReport(req.body ?? {});
      if (!report) {
        res.status(400).json({ error: 'id and status are required' });
        return;
      }
      if (!report.outcome) {
        res.json({ result: 'ignored', status: report.status });
        return;
      }
      const trigger = report.outcome === 'delivered' ? 'report.delivered' : 'report.failed';
      const lookup = { provider: AFRICASTALKING, providerMessageId: report.providerMessageId };
      try {
        const result = await applyWhenRecorded(deps, lookup, trigger, report.reason);
        res.status(result === 'not_found' ? 404 : 200).json({ result });
      } catch (err) {
        logger.error({ err }, 'could not apply a delivery report');
        res.status(500).json({ error: 'internal error' });
      }
    },
  );

  app.post(
    '/callbacks/voice/africastalking',
    express.urlencoded({ extended: false, limit: '16kb' }),
    express.json({ limit: '16kb' }),
    async (req, res) => {
      if (!callbackAllowed(req, res, deps.config.VOICE_CALLBACK_TOKEN, 'voice callbacks are refused until VOICE_CALLBACK_TOKEN is set'))
        return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
      const sessionId = text('sessionId');
      const isActive = text('isActive');
      if (!sessionId || (isActive !== '0' && isActive !== '1')) {
        res.status(400).json({ error: 'sessionId and isActive (0 or 1) are required' });
        return;
      }
      try {
        // the call is placed with the delivery as clientRequestId, which the callback carries back
        const delivery = await findDeliveryToRender(deps.pool, AFRICASTALKING_VOICE, {
          providerMessageId: sessionId,
          deliveryId: text('clientRequestId'),
        });
        if (!delivery || delivery.channel !== 'voice') {
          res.status(404).json({ error: 'no voice delivery for this call' });
          return;
        }
        const lookup =
          delivery.providerMessageId === sessionId
            ? { deliveryId: delivery.id }
            : { provider: AFRICASTALKING_VOICE, providerMessageId: sessionId };
        if (isActive === '1') {
          const { text: spoken } = deps.renderer.render(delivery.templateId, delivery.content, 'voice', delivery.data);
          await applyWhenRecorded(deps, lookup, 'report.delivered');
          res.type('application/xml').send(sayXml(spoken ?? ''));
          return;
        }
        // the call is over: one that was never answered failed (an answered one stays delivered)
        const why = [text('status'), text('hangupCause')].filter(Boolean).join(', ') || 'ended';
        const result = await applyWhenRecorded(deps, lookup, 'report.failed', `voice: the call was not answered (${why})`);
        res.type('application/xml').send(`<?xml version="1.0" encoding="UTF-8"?><Response/>`);
        logger.debug({ result, deliveryId: delivery.id }, 'voice call ended');
      } catch (err) {
        logger.error({ err }, 'could not answer a voice callback');
        res.status(500).json({ error: 'internal error' });
      }
    },
  );
}
