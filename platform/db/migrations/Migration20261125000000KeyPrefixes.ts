import { Migration } from '@mikro-orm/migrations';

/**
 * Key prefixes shown to clients are the documented prefix and 4 characters (publicKeyPrefix): the
 * ones stored before were cut at the key's last `_`, which the random part may hold, so they could
 * show most of the key. Stored prefixes are shortened to the public form.
 */
export class Migration20261125000000KeyPrefixes extends Migration {
  override up(): void {
    this.addSql(`update platform.api_clients
      set key_prefix = regexp_replace(key_prefix, '^((vk|nk|risk)_(live|test)_.{4}).*$', '\\1')
      where key_prefix ~ '^(vk|nk|risk)_(live|test)_.{5,}'`);
  }
}
