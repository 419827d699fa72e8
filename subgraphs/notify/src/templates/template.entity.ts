import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { TemplateContent } from './template.content.js';

/** One immutable version of a named template; saving a name again adds the next version. */
@Entity({ schema: 'notify', tableName: 'templates' })
export class Template {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'integer' })
  version!: number;

  @Property({ type: 'json' })
  content!: TemplateContent;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
