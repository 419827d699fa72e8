import { Migration } from '@mikro-orm/migrations';

/** Notify: WhatsApp and voice channels (deliveries may be on them; the sandbox keeps a WhatsApp message's template and parameters). */
export class Migration20261128050000NotifyChannels extends Migration {
  override up(): void {
    this.addSql(`alter table notify.deliveries drop constraint if exists deliveries_channel_check`);
    this.addSql(`alter table notify.deliveries add constraint deliveries_channel_check
      check (channel in ('email', 'sms', 'push', 'whatsapp', 'voice'))`);
    // {template, language, parameters} of a WhatsApp template message
    this.addSql(`alter table notify.sandbox_messages add column whatsapp jsonb`);
  }
}
