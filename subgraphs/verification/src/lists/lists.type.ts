import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LIST_KINDS, type ListKind } from '../../../../screening/index.js';
import { LIST_FORMATS, type ListFormat } from '../../../../screening/lists/parse.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

/** Shared with AML/watchlist filters: import these rather than registering another enum. */
export const ScreeningListKindEnum = enumOf(LIST_KINDS);
export const ScreeningListFormatEnum = enumOf(LIST_FORMATS);
export const ScreeningListChangeKindEnum = enumOf(['ADDED', 'REMOVED', 'CHANGED'] as const);
registerEnumType(ScreeningListKindEnum, { name: 'ScreeningListKind', description: 'SANCTIONS, PEP, ADVERSE_MEDIA, LAW_ENFORCEMENT' });
registerEnumType(ScreeningListFormatEnum, {
  name: 'ScreeningListFormat',
  description:
    'OFAC_CSV (sdn/alt/add or cons_prim/cons_alt/cons_add), OFAC_XML (sdnList), UN_XML, EU_XML, UK_CSV (OFSI ConList), CUSTOM_CSV, CUSTOM_JSON',
});
registerEnumType(ScreeningListChangeKindEnum, { name: 'ScreeningListChangeKind' });

@ObjectType('ScreeningListSnapshot', { description: 'One imported version of a list source, with its diff against the previous version' })
export class ScreeningListSnapshotType {
  @Field(() => ID) id!: string;
  @Field({ description: 'OFAC_SDN, OFAC_CONSOLIDATED, UN_SC, EU_FSF, UK_OFSI or CUSTOM_<NAME>' }) source!: string;
  @Field({ description: 'v1, v2… per source; screening hits carry it as listVersion' }) version!: string;
  @Field(() => ScreeningListKindEnum) kind!: ListKind;
  @Field(() => ScreeningListFormatEnum, { nullable: true }) format?: ListFormat | null;
  @Field(() => Int, { description: 'entries in this version' }) total!: number;
  @Field(() => Int, { description: 'entries whose external id was not in the previous version' }) added!: number;
  @Field(() => Int, { description: 'entries of the previous version no longer listed' }) removed!: number;
  @Field(() => Int, { description: 'entries present in both with any field changed' }) changed!: number;
  @Field(() => String, { nullable: true }) importedBy?: string | null;
  @Field() createdAt!: Date;
  @Field({ description: 'true for the newest version of its source (the one screening uses)' }) current!: boolean;
}

@ObjectType('ScreeningListImport')
export class ScreeningListImportType {
  @Field(() => ScreeningListSnapshotType) snapshot!: ScreeningListSnapshotType;
  @Field({ description: 'true when the content equalled the current version: no new version was created' }) unchanged!: boolean;
  @Field(() => [String], { description: 'the files that made this list' }) files!: string[];
}

@ObjectType('ScreeningListChange')
export class ScreeningListChangeType {
  @Field() externalId!: string;
  @Field(() => ScreeningListChangeKindEnum) change!: 'ADDED' | 'REMOVED' | 'CHANGED';
  @Field() primaryName!: string;
}

@ObjectType('ScreeningListChangePage')
export class ScreeningListChangePage {
  @Field(() => [ScreeningListChangeType]) data!: ScreeningListChangeType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}
