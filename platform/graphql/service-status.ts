import { Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { ServiceName } from '../auth/principal.js';

/**
 * `<service>Status` query: proves a subgraph is reachable through the gateway. Every subgraph
 * has it, so a subgraph whose capabilities have not landed yet still composes.
 */
export function statusResolver(service: ServiceName, version = '0.1.0') {
  @ObjectType(`${service[0].toUpperCase()}${service.slice(1)}Status`, {
    description: `The ${service} service answering through the gateway`,
  })
  class Status {
    @Field({ description: `The service that answered: ${service}` })
    service!: string;

    @Field({ description: 'Its version' })
    version!: string;
  }

  @Resolver()
  class StatusResolver {
    @Query(() => Status, {
      name: `${service}Status`,
      description: `Whether the ${service} service is reachable: it answers with its name and version`,
    })
    status(): Status {
      return { service, version };
    }
  }
  return StatusResolver;
}
