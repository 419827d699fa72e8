import { Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { ServiceName } from '../auth/principal.js';

/**
 * `<service>Status` query: proves a subgraph is reachable through the gateway. Every subgraph
 * has it, so a subgraph whose capabilities have not landed yet still composes.
 */
export function statusResolver(service: ServiceName, version = '0.1.0') {
  @ObjectType(`${service[0].toUpperCase()}${service.slice(1)}Status`)
  class Status {
    @Field() service!: string;
    @Field() version!: string;
  }

  @Resolver()
  class StatusResolver {
    @Query(() => Status, { name: `${service}Status` })
    status(): Status {
      return { service, version };
    }
  }
  return StatusResolver;
}
