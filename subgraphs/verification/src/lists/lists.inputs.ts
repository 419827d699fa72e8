import { Field, InputType } from 'type-graphql';
import { IsNotEmpty, MaxLength } from 'class-validator';

@InputType('ScreeningListFileInput')
export class ScreeningListFileInput {
  @Field({ description: 'file name (helps tell sdn.csv from cons_prim.csv, and names custom lists)' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name!: string;

  @Field({ description: 'the file content as text' })
  @IsNotEmpty({ message: 'content must not be empty' })
  content!: string;
}
