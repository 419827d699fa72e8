import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks and deliveries move to the platform (every service's events are relayed by every
 * service); deliveries become the one signed-HTTP queue, for webhooks and callbacks alike: the AML
 * batch callbacks kept on the batch become deliveries owned by it.
 */
export class Migration20261124000000Deliveries extends Migration {
  override up(): void {
    // SET SCHEMA moves the tables with their data, indexes and constraints
    this.addSql(`alter table verification.webhooks set schema platform`);
    this.addSql(`alter table verification.webhook_deliveries set schema platform`);
    this.addSql(`alter table platform.webhook_deliveries rename to deliveries`);
    this.addSql(`alter table verification.webhook_attempts set schema platform`);
    this.addSql(`alter table platform.webhook_attempts rename to delivery_attempts`);

    this.addSql(`alter table platform.deliveries
      add column environment text,
      add column owner_type text,
      add column owner_id text,
      add column url text,
      add column message_id text,
      add column secret text,
      add column last_status_code integer,
      add column last_error text,
      add column claim_id uuid,
      add column claimed_until timestamptz,
      alter column webhook_id drop not null,
      alter column event_id drop not null`);
    this.addSql(`update platform.deliveries d set environment = w.environment, url = w.callback_url
      from platform.webhooks w where w.id = d.webhook_id`);
    this.addSql(`update platform.deliveries d set last_status_code = a.status_code, last_error = a.error
      from (select distinct on (delivery_id) delivery_id, status_code, error from platform.delivery_attempts order by delivery_id, number desc) a
      where a.delivery_id = d.id`);
    this.addSql(`update platform.deliveries set next_attempt_at = now() where status = 'PENDING' and next_attempt_at is null`);

    this.addSql(`alter table verification.aml_batches add column callback_delivery_id uuid`);
    this
      .addSql(`insert into platform.deliveries (id, organization_id, environment, owner_type, owner_id, event, url, message_id, secret, body,
        status, attempt_count, next_attempt_at, delivered_at, last_status_code, last_error, created_at)
      select gen_random_uuid(), organization_id, environment, 'aml_batch', id::text, 'aml.batch_complete', callback_url, 'msg_' || id,
        callback_secret, callback_body, callback_status, callback_attempts,
        case when callback_status = 'PENDING' then coalesce(callback_next_attempt_at, now()) end,
        callback_delivered_at, callback_last_status_code, callback_last_error, coalesce(completed_at, created_at)
      from verification.aml_batches where callback_status is not null and callback_body is not null`);
    this.addSql(`update verification.aml_batches b set callback_delivery_id = d.id, callback_secret = null
      from platform.deliveries d where d.owner_type = 'aml_batch' and d.owner_id = b.id::text`);
    this.addSql(`alter table verification.aml_batches
      drop column callback_status, drop column callback_attempts, drop column callback_last_status_code,
      drop column callback_last_error, drop column callback_delivered_at, drop column callback_next_attempt_at, drop column callback_body`);

    this.addSql(`alter table platform.deliveries alter column environment set not null, alter column url set not null`);
    this.addSql(`create index deliveries_due_idx on platform.deliveries (next_attempt_at) where status = 'PENDING'`);
    this.addSql(`create index deliveries_owner_idx on platform.deliveries (owner_type, owner_id) where owner_type is not null`);
  }
}
