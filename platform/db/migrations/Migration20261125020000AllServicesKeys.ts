import { Migration } from '@mikro-orm/migrations';

/** An API key may serve every service (`all`, prefix `ak_`): a backend that reads the whole graph. */
export class Migration20261125020000AllServicesKeys extends Migration {
  override up(): void {
    this.addSql(`alter table platform.api_clients drop constraint api_clients_service_check`);
    this.addSql(
      `alter table platform.api_clients add constraint api_clients_service_check check (service in ('verification', 'risk', 'notify', 'all'))`,
    );
  }
}
