import { Field, InputType } from 'type-graphql';
import { IsNotEmpty, MaxLength } from 'class-validator';
import type { ListKind } from '../../../../screening/index.js';
import type { ListFormat } from '../../../../screening/lists/parse.js';
import { ScreeningListKindEnum } from '../../../../screening/screening-hit.type.js';
import { ScreeningListChangeKindEnum, ScreeningListFormatEnum, type ScreeningListChangeKind } from './lists.type.js';

@InputType('ScreeningListFileInput', { description: 'One more file of an import' })
export class ScreeningListFileInput {
  @Field({ description: 'The file name (tells sdn.csv from cons_prim.csv, and names custom lists)' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name!: string;

  @Field({ description: 'The file content as text' })
  @IsNotEmpty({ message: 'content must not be empty' })
  content!: string;
}

@InputType('ImportScreeningListInput', { description: 'A list file to import as a new version of its list' })
export class ImportScreeningListInput {
  @Field({ description: 'The list file as text (its format is detected from the content)' })
  content!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The list it must be (checked against the content); names a custom list (CUSTOM_<NAME>)',
  })
  source?: string | null;

  @Field(() => ScreeningListFormatEnum, { nullable: true, description: 'The format it must be (checked against the content)' })
  format?: ListFormat | null;

  @Field(() => ScreeningListKindEnum, { nullable: true, description: 'What a custom list holds, when its rows do not say' })
  kind?: ListKind | null;

  @Field(() => String, { nullable: true, description: 'The file’s name (tells sdn.csv from cons_prim.csv)' })
  fileName?: string | null;

  @Field(() => [ScreeningListFileInput], { nullable: true, description: 'More files of the same import (OFAC alt.csv and add.csv)' })
  files?: ScreeningListFileInput[] | null;
}

@InputType('ScreeningListVersionFilter', { description: 'Which list versions to list (all when empty)' })
export class ScreeningListVersionFilter {
  @Field(() => String, { nullable: true, description: 'Only the versions of this list (OFAC_SDN, UN_SC…)' })
  source?: string | null;
}

@InputType('ScreeningListChangeFilter', { description: 'Which changes of a list version to list (all when empty)' })
export class ScreeningListChangeFilter {
  @Field(() => ScreeningListChangeKindEnum, { nullable: true, description: 'Only changes of this kind' })
  change?: ScreeningListChangeKind | null;
}
