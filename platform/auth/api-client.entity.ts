import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment, KeyService } from './principal.js';

@Entity({ schema: 'platform', tableName: 'api_clients' })
export class ApiClient {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  service!: KeyService;

  @Property({ type: 'text' })
  environment!: Environment;

  /** The public start of the key (`vk_live_Ab12…`), to recognise it in lists. */
  @Property({ type: 'text' })
  keyPrefix!: string;

  @Property({ type: 'text', hidden: true })
  keyHash!: string;

  @Property({ type: 'json' })
  permissions: string[] & Opt = [];

  @Property({ type: 'integer' })
  rateLimit!: number;

  @Property({ type: 'boolean' })
  active: boolean & Opt = true;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
