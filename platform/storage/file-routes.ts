import type { RequestHandler } from 'express';
import { actorOf, type AuditRecord } from '../audit/audit.js';
import { requirePermission } from '../auth/permissions.js';
import { readPrincipal, type PrincipalScope } from '../auth/principal.js';
import { tenantOf } from '../auth/tenant.js';
import { AppError, notFound } from '../errors.js';
import { sendAppError } from '../http/send-error.js';
import type { Logger } from '../logger.js';
import type { FileService } from './file-store.js';

/**
 * Uploaded files are served at `/files/<id>` by the gateway (and the REST adapter, which asks the
 * gateway), to the owning organization only: the gateway authenticates the key and asks the
 * subgraph that keeps the file, which checks the key's permission on the file's owner
 * (`document:read` for a document's images).
 */
export const FILE_ROUTE = '/files/:id';

export const fileUrl = (id: string) => `/files/${id}`;

/** What the gateway signs a file request's principal for: this subgraph, this file. */
export const fileScope = (audience: string, id: string): PrincipalScope => ({ audience, request: `GET ${fileUrl(id)}` });

/** The subgraph's side: the file's bytes for a principal the gateway signed for this very file. */
export function serveFiles(opts: {
  files: FileService;
  internalSecret: string;
  audience: string;
  logger: Logger;
  /** Appends to the audit trail (`recordAudit` in a transaction of its own): every view is recorded before the bytes go. */
  audit(record: AuditRecord): Promise<void>;
}): RequestHandler {
  return async (req, res) => {
    const id = String(req.params.id);
    try {
      const principal = readPrincipal(req.headers, opts.internalSecret, fileScope(opts.audience, id));
      if (!principal) throw new AppError('UNAUTHENTICATED', 'Files are served through the gateway');
      const tenant = tenantOf(principal);
      const found = tenant ? await opts.files.read(tenant, id) : null;
      if (!found) throw notFound('File', id);
      requirePermission(principal, 'verification', `${found.file.ownerType}:read`);
      // no view without its trace: the audit entry commits before a byte is sent
      await opts.audit({
        organizationId: found.file.organizationId,
        environment: found.file.environment,
        action: 'file.viewed',
        actor: actorOf(principal),
        resourceType: found.file.ownerType,
        resourceId: found.file.ownerId,
        userId: found.file.userId,
        details: { fileId: found.file.id, role: found.file.role },
      });
      res
        .status(200)
        .set({
          'content-type': found.file.contentType,
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
          'content-disposition': 'inline',
        })
        .send(found.bytes);
    } catch (error) {
      if (error instanceof AppError) return sendAppError(res, error);
      opts.logger.error({ err: error, fileId: id }, 'file download failed');
      sendAppError(res, new AppError('INTERNAL', 'Internal server error'));
    }
  };
}
