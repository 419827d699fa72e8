import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

@Entity({ schema: 'platform', tableName: 'organizations' })
export class Organization {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  constructor(name: string) {
    this.name = name;
  }
}
