import { timingSafeEqual, createHash } from 'node:crypto';
import express from 'express';
import { UUID_PATTERN } from '../../../../platform/ids.js';
import type { NotifyDeps } from '../deps.js';
import { AFRICASTALKING, parseDeliveryReport } from '../channels/sms-africastalking.provider.js';
import { applyDeliveryReport } from '../dispatch/delivery.report.js';
import { OPEN_PIXEL_PATH } from '../dispatch/tracking.url.js';

export const CALLBACK_TOKEN_HEADER = 'x-callback-token';

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** A delivery report may overtake the commit of the send it reports: look again for this long. */
const REPORT_WAIT_MS = 2_000;

const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/**
 * HTTP routes the notify service serves itself (public, no API key):
 * - `GET /track/open/{token}.gif`: the email open pixel → channel `opened`, `openedAt` (first open);
 *   always answers the GIF, whatever the token.
 * - `POST /callbacks/sms/africastalking?token=SMS_CALLBACK_TOKEN` (or header `X-Callback-Token`;
 *   refused while the token is not configured): Africa's Talking delivery
 *   reports (form fields `id`, `status`, `failureReason`…) → `delivered` or `failed`.
 */
export function trackingRoutes(app: express.Express, deps: NotifyDeps): void {
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
      // Africa's Talking can only call a URL (?token=); a proxy in front may send the header instead
      const expected = deps.config.SMS_CALLBACK_TOKEN;
      if (!expected) {
        res.status(403).json({ error: 'delivery reports are refused until SMS_CALLBACK_TOKEN is set' });
        return;
      }
      const given = req.get(CALLBACK_TOKEN_HEADER) ?? String(req.query.token ?? '');
      if (!sameSecret(given, expected)) {
        res.status(401).json({ error: 'invalid callback token' });
        return;
      }
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
      const deadline = Date.now() + REPORT_WAIT_MS;
      try {
        let result = await applyDeliveryReport(deps.pool, lookup, trigger, report.reason);
        while (result === 'not_found' && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          result = await applyDeliveryReport(deps.pool, lookup, trigger, report.reason);
        }
        res.status(result === 'not_found' ? 404 : 200).json({ result });
      } catch (err) {
        logger.error({ err }, 'could not apply a delivery report');
        res.status(500).json({ error: 'internal error' });
      }
    },
  );
}
