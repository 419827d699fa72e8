import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { ListKind } from '../../../../screening/index.js';
import { LIST_FORMATS, type ListFormat } from '../../../../screening/lists/parse.js';
import { ScreeningListKindEnum } from '../../../../screening/screening-hit.type.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const ScreeningListFormatEnum = enumOf(LIST_FORMATS);
export const ScreeningListChangeKindEnum = enumOf(['ADDED', 'REMOVED', 'CHANGED'] as const);
export type ScreeningListChangeKind = keyof typeof ScreeningListChangeKindEnum;
registerEnumType(ScreeningListFormatEnum, {
  name: 'ScreeningListFormat',
  description: 'The file format of a list',
  valuesConfig: {
    OFAC_CSV: { description: 'OFAC CSV: sdn.csv with alt.csv and add.csv, or cons_prim.csv with cons_alt.csv and cons_add.csv' },
    OFAC_XML: { description: 'OFAC XML (sdnList)' },
    UN_XML: { description: 'UN Security Council consolidated list, XML' },
    EU_XML: { description: 'EU financial sanctions files, XML' },
    UK_CSV: { description: 'UK OFSI consolidated list (ConList.csv)' },
    CUSTOM_CSV: { description: 'Your own list, CSV' },
    CUSTOM_JSON: { description: 'Your own list, JSON' },
  },
});
registerEnumType(ScreeningListChangeKindEnum, {
  name: 'ScreeningListChangeKind',
  description: 'How an entry changed from one version of a list to the next',
  valuesConfig: {
    ADDED: { description: 'Listed in this version, not in the previous one' },
    REMOVED: { description: 'Listed in the previous version, no longer' },
    CHANGED: { description: 'Listed in both, with a field changed' },
  },
});

@ObjectType('ScreeningListSnapshot', { description: 'One imported version of a list, with its differences from the previous version' })
export class ScreeningListSnapshotType {
  @Field(() => ID, { description: 'Identifier of the version' })
  id!: string;

  @Field({ description: 'The list: OFAC_SDN, OFAC_CONSOLIDATED, UN_SC, EU_FSF, UK_OFSI or CUSTOM_<NAME>' })
  source!: string;

  @Field({ description: 'v1, v2… per list; screening hits carry it as listVersion' })
  version!: string;

  @Field(() => ScreeningListKindEnum, { description: 'What the list holds' })
  kind!: ListKind;

  @Field(() => ScreeningListFormatEnum, { nullable: true, description: 'The format it was imported from' })
  format?: ListFormat | null;

  @Field(() => Int, { description: 'Entries in this version' })
  total!: number;

  @Field(() => Int, { description: 'Entries not in the previous version' })
  added!: number;

  @Field(() => Int, { description: 'Entries of the previous version no longer listed' })
  removed!: number;

  @Field(() => Int, { description: 'Entries in both versions with a field changed' })
  changed!: number;

  @Field(() => String, { nullable: true, description: 'Who imported it' })
  importedBy?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The day its publisher dated this content (YYYY-MM-DD), e.g. the snapshot shipped with the platform; null when not given',
  })
  publishedOn?: string | null;

  @Field({ description: 'When it was imported' })
  createdAt!: Date;

  @Field({ description: 'true for the newest version of its list (the one screening uses)' })
  current!: boolean;
}

export const ScreeningListSnapshotConnection = ConnectionType('ScreeningListSnapshot', ScreeningListSnapshotType, 'list version');

@ObjectType('ScreeningListImport', { description: 'What one import made of one list' })
export class ScreeningListImportType {
  @Field(() => ScreeningListSnapshotType, { description: 'The new version, or the current one when the content was the same' })
  snapshot!: ScreeningListSnapshotType;

  @Field({ description: 'true when the content equalled the current version: no new version was made' })
  unchanged!: boolean;

  @Field(() => [String], { description: 'The files that made this list' })
  files!: string[];
}

@ObjectType('ScreeningListChange', { description: 'An entry that changed from the previous version of a list' })
export class ScreeningListChangeType {
  @Field({ description: 'The list’s own identifier of the entry' })
  externalId!: string;

  @Field(() => ScreeningListChangeKindEnum, { description: 'How it changed' })
  change!: ScreeningListChangeKind;

  @Field({ description: 'The entry’s primary name' })
  primaryName!: string;
}

export const ScreeningListChangeConnection = ConnectionType(
  'ScreeningListChange',
  ScreeningListChangeType,
  'list change',
  undefined,
  'added first, then changed, then removed, each by the entry’s identifier',
);

@ObjectType('ImportScreeningListPayload', { description: 'The result of importScreeningList' })
export class ImportScreeningListPayload {
  @Field(() => [ScreeningListImportType], { nullable: true, description: 'One result per list the files held' })
  imports?: ScreeningListImportType[] | null;

  @Field(() => [UserError], {
    description: 'Content that is not a list, or that does not match the format or source given; empty on success',
  })
  userErrors!: UserError[];
}
