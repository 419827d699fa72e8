import type { RequestHandler } from 'express';
import type { Orm } from '../../../../platform/db/orm.js';
import { AppError } from '../../../../platform/errors.js';
import { sendAppError } from '../../../../platform/http/send-error.js';
import type { Logger } from '../../../../platform/logger.js';
export { MAGIC_LINK_PATH } from '../../../../platform/http/magic-link.js';
import { OtpVerification } from './otp.entity.js';
import { readLinkToken } from './otp.js';
import { isUuid } from '../../../../platform/ids.js';
import { OtpService, type OtpDeps } from './otp.service.js';

/** The browser's destination: the redirectUrl given at creation with the outcome in its query. */
function destination(redirectUrl: string, v: { id: string; status: string }): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('verificationId', v.id);
  url.searchParams.set('status', v.status);
  return url.toString();
}

/** Opens a magic link: verifies its email verification (once), then 302 to its redirectUrl (or a short page without one). */
export function serveMagicLinks(opts: { orm: Orm; otp: OtpDeps; logger: Logger }): RequestHandler {
  return async (req, res) => {
    try {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const read = readLinkToken(opts.otp.secret, token);
      if (!read || !isUuid(read.verificationId)) throw new AppError('NOT_FOUND', 'token: this link is not valid');
      const em = opts.orm.em.fork();
      const found = await em.findOne(OtpVerification, { id: read.verificationId, kind: 'email' });
      if (!found) throw new AppError('NOT_FOUND', 'token: this link is not valid');
      const tenant = { organizationId: found.organizationId, environment: found.environment };
      let outcome: { id: string; status: string; redirectUrl?: string | null };
      try {
        outcome = await new OtpService(em, tenant, 'email', opts.otp).verifyLink(token);
      } catch (error) {
        // a link used twice, replaced or over: the browser still goes back to the integrator, told how it stands
        if (!(error instanceof AppError) || error.code !== 'CONFLICT' || !found.redirectUrl) throw error;
        outcome = (await em.fork().findOne(OtpVerification, { id: found.id })) ?? found;
      }
      res.setHeader('cache-control', 'no-store');
      res.setHeader('referrer-policy', 'no-referrer');
      if (outcome.redirectUrl) return res.redirect(302, destination(outcome.redirectUrl, outcome));
      res
        .status(200)
        .type('text/plain; charset=utf-8')
        .send(outcome.status === 'VERIFIED' ? 'Your email address is verified. You can close this page.' : 'This link has expired.');
    } catch (error) {
      if (error instanceof AppError) return sendAppError(res, error);
      opts.logger.error({ err: error }, 'magic link failed');
      sendAppError(res, new AppError('INTERNAL', 'Internal server error'));
    }
  };
}
