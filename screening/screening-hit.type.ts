import { Directive, Field, Float, ObjectType, registerEnumType } from 'type-graphql';
import { LIST_KINDS, type ListKind } from './types.js';

/**
 * The one GraphQL shape of a list entry a name matched, shared by every subgraph that screens
 * (AML matches and watchlist alerts in verification, sanctions hits in risk): `@shareable`, so the
 * composed graph has a single ScreeningHit type and one ScreeningListKind enum.
 */

export const ScreeningListKindEnum = Object.fromEntries(LIST_KINDS.map((kind) => [kind, kind])) as { [K in ListKind]: K };
registerEnumType(ScreeningListKindEnum, {
  name: 'ScreeningListKind',
  description: 'What a screening list holds',
  valuesConfig: {
    SANCTIONS: { description: 'Sanctioned people and entities (OFAC SDN, UN Security Council, EU, UK OFSI…)' },
    PEP: { description: 'Politically exposed persons' },
    ADVERSE_MEDIA: { description: 'People and entities named in adverse media' },
    LAW_ENFORCEMENT: { description: 'Wanted and law-enforcement lists' },
  },
});

@ObjectType('ScreeningHit', { description: 'A list entry that a screened name matched' })
@Directive('@shareable')
export class ScreeningHitType {
  @Field({ description: 'The list that holds the entry (OFAC_SDN, UN_SC, a custom list…)' })
  listName!: string;

  @Field({ description: 'The list’s source as imported (same as listName for the official lists)' })
  source!: string;

  @Field(() => ScreeningListKindEnum, { description: 'What the list holds' })
  kind!: ListKind;

  @Field({ description: 'The list’s own identifier of the entry' })
  externalId!: string;

  @Field({ description: 'INDIVIDUAL, ENTITY, VESSEL or AIRCRAFT' })
  entityType!: string;

  @Field({ description: 'The entry’s primary name' })
  primaryName!: string;

  @Field({ description: 'The name of the entry (primary or alias) that matched' })
  matchedName!: string;

  @Field(() => Float, { description: 'How close the match is, 0 to 1' })
  score!: number;

  @Field(() => [String], { description: 'Sanctions programmes the entry is listed under' })
  programs!: string[];

  @Field(() => String, { nullable: true, description: 'When the list added the entry (as the list gives it)' })
  addedDate?: string | null;

  @Field({ description: 'Version of the list snapshot that matched' })
  listVersion!: string;
}
